import type { Pool, PoolConnection } from 'mysql2';
import { withinRequestDeadline } from './request-deadline.js';

/** What of a mysql2 connection this needs that its typings leave out. */
interface GuardedConnection {
  addCommand(command: GuardedCommand): unknown;
  destroy(): void;
  readonly stream?: { destroy(): void };
}

type OnResult = (error: unknown, ...results: unknown[]) => unknown;

/** Where a guarded command keeps its own result callback and its connection. */
const OWN_ON_RESULT = Symbol('own onResult');
const CONNECTION = Symbol('connection');

/** A mysql2 command (query, execute…) as the guard sees it. */
interface GuardedCommand {
  onResult?: OnResult;
  timeout?: number;
  [OWN_ON_RESULT]?: OnResult;
  [CONNECTION]?: GuardedConnection;
}

/** After these, the connection's state is unknown: it must never serve another query. */
function leavesConnectionUnsafe(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, fatal } = error as { code?: unknown; fatal?: unknown };
  return code === 'PROTOCOL_SEQUENCE_TIMEOUT' || fatal === true;
}

/**
 * mysql2's query timeout only rejects the caller: the statement stays the connection's current
 * command, and TypeORM's `release()` puts the connection back in the pool. The next query handed
 * that connection queues behind the abandoned statement, with no deadline of its own (a query's
 * timer starts only when it becomes the current command), until the server answers the old one:
 * for ever when the network drops packets. So a connection whose query timed out, or failed in a
 * way that ends the connection, is destroyed on the spot: it leaves the pool (which opens a new
 * one on demand) and its socket is closed without waiting for a peer that may never answer.
 * The statement may still complete on the server; its caller was answered as if its fate were
 * unknown (503). A statement's timeout is also cut here to what is left of its request's deadline
 * (request-deadline.ts): the command is added in the request's own asynchronous context.
 */
export function discardUnsafeConnections(pool: Pool): void {
  const guarded = new WeakSet<PoolConnection>();
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void) => {
    getConnection((error, connection) => {
      if (!error && !guarded.has(connection)) {
        guarded.add(connection);
        guard(connection as unknown as GuardedConnection);
      }
      callback(error, connection);
    });
  };
}

function guard(connection: GuardedConnection): void {
  const addCommand = connection.addCommand.bind(connection);
  connection.addCommand = (command) => {
    if (command.timeout) command.timeout = withinRequestDeadline(command.timeout);
    if (command.onResult) {
      command[OWN_ON_RESULT] = command.onResult;
      command[CONNECTION] = connection;
      command.onResult = guardedOnResult;
    }
    return addCommand(command);
  };
}

/**
 * The one result callback of every guarded command (mysql2 calls it as the command's method): the
 * command's own, after destroying a connection left unsafe. One function, not a closure made per
 * command: measured with a CSV export of 100,000 tickets, a closure per command made the rows of
 * every result outlive the young generation's collections (a fifth of all that the export
 * allocated was promoted, to be freed only by a full collection), and RSS grew by 107 MiB
 * instead of 20.
 */
function guardedOnResult(this: GuardedCommand, error: unknown, ...results: unknown[]): unknown {
  const connection = this[CONNECTION];
  if (connection !== undefined && leavesConnectionUnsafe(error)) {
    connection.destroy();
    connection.stream?.destroy();
  }
  return (this[OWN_ON_RESULT] as OnResult).call(this, error, ...results);
}
