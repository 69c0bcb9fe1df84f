import { QueryFailedError } from 'typeorm';

/**
 * A duplicate primary or unique key, on SQLite or MySQL/MariaDB: as TypeORM wraps it, or as
 * better-sqlite3 throws it from a statement Sql prepared.
 */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error instanceof QueryFailedError ? error.driverError : error) as
    { code?: unknown; errno?: unknown } | null | undefined;
  const code = driverError?.code;
  return (
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'ER_DUP_ENTRY' ||
    driverError?.errno === 1062
  );
}

/** Codes that mean "the database cannot be used right now", not "this request is wrong". */
const UNAVAILABLE_CODES = new Set([
  // SQLite: locked for longer than the busy timeout, disk trouble, file gone or read-only.
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_READONLY_DBMOVED',
  // Network and server states, as Node and mysql2 name them.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_QUERY_TIMEOUT',
  'ER_OPTION_PREVENTS_STATEMENT',
  // Galera: a node outside the primary component (partitioned, or still joining) refuses every
  // statement that touches a table with "WSREP has not yet prepared node for application use",
  // and a commit that the cluster could not replicate fails with "error during COMMIT".
  'ER_UNKNOWN_COM_ERROR',
  'ER_ERROR_DURING_COMMIT',
  // Our own bound on waiting for a pooled connection (pool-acquire-timeout.ts).
  'POOL_ACQUIRE_TIMEOUT',
  // Our own bound on a write as its request sees it (WriteDeadlineError).
  'WRITE_DEADLINE',
]);

/**
 * The statement was rolled back whole and nothing of it is stored: a deadlock, or on Galera a
 * certification conflict with a write committed first on another node (reported as a deadlock).
 */
export function isRolledBack(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; errno?: number } | undefined;
  return driverError?.code === 'ER_LOCK_DEADLOCK' || driverError?.errno === 1213;
}

/** True when an error says the database is down or unreachable (the answer is 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('SQLITE_IOERR'))) return true;
    const message = (current as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /pool is closed|connection is closed|database connection is not open|connection is not established|Can't add new command when connection is in closed state|timeout acquiring a connection|Queue limit reached/i.test(
        message,
      )
    ) {
      return true;
    }
    current =
      (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when the server itself refused the statement and said why (a duplicate key, a value too
 * long): the statement then changed nothing. False after a timeout, a lost connection or any
 * error the client raised on its own, when the statement may or may not have taken effect, and
 * false for an unavailable database (a lock wait, a shutdown), where trying again at once is no use.
 */
export function isRefusedByServer(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { sqlState?: unknown; fatal?: unknown } | undefined;
  return typeof driverError?.sqlState === 'string' && driverError.fatal !== true && !isDatabaseUnavailable(error);
}

/** A write not finished within its deadline: it may still take effect, its caller gets 503. */
export class WriteDeadlineError extends Error {
  readonly code = 'WRITE_DEADLINE';

  constructor(deadlineMs: number) {
    super(`The write did not finish within ${deadlineMs} ms; whether it took effect is unknown`);
  }
}
