import type { PoolConnection, RowDataPacket } from 'mysql2';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import { isRefusedByServer, isRolledBack, isUniqueViolation } from '../database/database-errors.js';
import { mysqlPoolOf } from '../database/driver-handles.js';
import { type Pending, TurnBatcher } from '../database/turn-batcher.js';
import { EventWriteParticipants, type SqlStatement } from './event-write-participants.js';
import { SpecialEvent, SpecialEventDate } from './special-event.entity.js';
import {
  type ExpectedRepresentation,
  type ListedEvent,
  type ListQuery,
  type ListResult,
  SpecialEventsRepository,
  type StoredCursorKey,
} from './special-events.repository.js';
import {
  CURSOR_KEYS_SQL,
  type CursorKeyRow,
  cursorKeyOf,
  dateRows,
  DELETE_IF_SQL,
  type EventRow,
  FIND_SQL,
  isRanged,
  isRowsExaminedAbort,
  listSql,
  rowToEvent,
  rowToListed,
  UPDATE_SQL,
  updateParameters,
  walkEndSql,
} from './special-events.sql.js';

/** Runs the participants' statements through TypeORM's manager (inside its transaction). */
async function runStatements(manager: EntityManager, statements: readonly SqlStatement[]): Promise<void> {
  for (const { sql, parameters } of statements) await manager.query(sql, [...parameters]);
}

/**
 * One INSERT of `rows`, leaving them untouched. TypeORM's `insert()` would, for columns with a
 * database default (version, sort_date), SELECT the rows back and merge them into the objects by
 * position; in a multi-row insert the SELECT's order is the primary key's, so an event could come
 * back with another one's eventId. It would also cost a query.
 */
function insertRows<T extends object>(
  manager: EntityManager,
  target: new () => T,
  rows: readonly T[],
): Promise<unknown> {
  return manager
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(rows as T[])
    .updateEntity(false)
    .execute();
}

/**
 * Through the TypeORM repository: `insert()`, never `save()` (which SELECTs first). The MySQL repository
 * falls back to these single-row writes when a batch cannot decide for each of its requests. A
 * write that touches the date index too runs in one transaction; one without is a single statement.
 */
export class TypeOrmSpecialEventsRepository extends SpecialEventsRepository {
  constructor(
    protected readonly events: Repository<SpecialEvent>,
    protected readonly participants = new EventWriteParticipants(),
  ) {
    super();
  }

  async insert(event: SpecialEvent): Promise<boolean> {
    try {
      await this.insertAll([event]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    const joined = this.participants.statementsFor({ kind: 'deleted', eventId });
    return this.transaction(async (manager) => {
      const removed =
        expected === undefined
          ? (await manager.delete(SpecialEvent, { eventId })).affected
          : // A structured result, for the number of rows the DELETE matched.
            (
              (await manager.queryRunner?.query(
                DELETE_IF_SQL,
                [eventId, expected.version, expected.ticketsSold],
                true,
              )) as { affected?: number } | undefined
            )?.affected;
      if (!removed) return false;
      await manager.delete(SpecialEventDate, { eventId });
      await runStatements(manager, joined);
      return true;
    });
  }

  async find(eventId: string): Promise<SpecialEvent | null> {
    const rows = await this.read(FIND_SQL, [eventId]);
    return rows.length === 0 ? null : rowToEvent(rows[0]);
  }

  /**
   * On MariaDB the walk is bounded by ROWS EXAMINED: a page that comes back short was either the
   * last or cut by that bound, so it is read again, bounded by the walk's end row when there is
   * one (and then says to resume there). MySQL has no such bound: its walk ends with the range.
   */
  async list(query: ListQuery): Promise<ListResult> {
    const mariadb = isRanged(query) && (await this.isMariadb());
    const { sql, parameters } = listSql(query, mariadb ? { walk: 'rows-examined' } : {});
    let events: ListedEvent[] = [];
    try {
      events = (await this.read(sql, parameters)).map(rowToListed);
    } catch (error) {
      // A plan with a sort (MariaDB picks one for some small ranges) is aborted by ROWS EXAMINED
      // with an error rather than cut short: the bounded read below answers instead.
      if (!mariadb || !isRowsExaminedAbort(error)) throw error;
    }
    if (!mariadb || events.length >= query.limit) return { events };
    const walkEnd = walkEndSql(query);
    const [end] = (await this.read(walkEnd.sql, walkEnd.parameters)) as unknown as {
      event_date: string;
      event_id: string;
    }[];
    const upTo = end ? { key: end.event_date, eventId: end.event_id } : undefined;
    const bounded = listSql({ ...query, upTo });
    return { events: (await this.read(bounded.sql, bounded.parameters)).map(rowToListed), resumeAt: upTo };
  }

  private mariadb?: Promise<boolean>;

  private isMariadb(): Promise<boolean> {
    this.mariadb ??= this.events.manager
      .query('SELECT VERSION() AS version')
      .then((rows: { version: string }[]) => /mariadb/i.test(rows[0]?.version ?? ''))
      .catch((error: unknown) => {
        this.mariadb = undefined;
        throw error;
      });
    return this.mariadb;
  }

  async update(event: SpecialEvent, expectedVersion: number, soldUnchanged = false): Promise<boolean> {
    const joined = this.participants.statementsFor({ kind: 'updated', event });
    return this.transaction(async (manager) => {
      // A structured result, for the number of rows the UPDATE matched.
      const parameters = updateParameters(event, expectedVersion, soldUnchanged);
      const result = await manager.queryRunner?.query(UPDATE_SQL, parameters, true);
      if (!(result as { affected?: number } | undefined)?.affected) return false;
      await manager.delete(SpecialEventDate, { eventId: event.eventId });
      const dates = dateRows([event]);
      if (dates.length > 0) await manager.insert(SpecialEventDate, dates);
      await runStatements(manager, joined);
      return true;
    });
  }

  /**
   * Inserts the events, as one statement when that is all there is to write, else with their
   * dates and the participants' statements in one transaction.
   */
  protected async insertAll(events: readonly SpecialEvent[]): Promise<void> {
    const dates = dateRows(events);
    const joined = events.flatMap((event) => this.participants.statementsFor({ kind: 'created', event }));
    if (dates.length === 0 && joined.length === 0) {
      await insertRows(this.events.manager, SpecialEvent, events);
      return;
    }
    await this.transaction(async (manager) => {
      await insertRows(manager, SpecialEvent, events);
      if (dates.length > 0) await insertRows(manager, SpecialEventDate, dates);
      await runStatements(manager, joined);
    });
  }

  async cursorSigningKeys(): Promise<StoredCursorKey[]> {
    const rows = (await this.events.manager.query(CURSOR_KEYS_SQL)) as CursorKeyRow[];
    return rows.map(cursorKeyOf);
  }

  protected read(sql: string, parameters: readonly unknown[]): Promise<EventRow[]> {
    return this.events.manager.query(sql, [...parameters]);
  }

  /** `work` in a READ COMMITTED transaction (no gap locks on MySQL), committed when it returns. */
  protected transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.events.manager.transaction('READ COMMITTED', work);
  }
}

/**
 * MySQL/MariaDB: writes that arrive in one turn of the event loop share one statement and one
 * commit (one redo-log flush) instead of one each; InnoDB's own group commit only merges commits
 * that happen to overlap. Each request still gets its own answer, decided by the database:
 *
 * - Creates: one multi-row INSERT (and, for events with ISO dates, one of their dates, in the same
 *   transaction). The batch is atomic: when the server refuses it (an
 *   `eventId` already stored or twice in the batch, a value it rejects, a deadlock or on Galera a
 *   certification conflict, which roll it back whole) it stored nothing, and every event of the
 *   batch is then inserted on its own, so duplicates get their 409 from the primary key. When its
 *   fate is unknown (a timeout, a lost connection: the INSERT may still commit), every caller gets
 *   the error (503) and nothing is retried: a retry would meet the batch's own rows and answer 409
 *   for ids the service generated itself.
 * - Deletes: one `DELETE … WHERE event_id IN (…)` in a transaction, committed only when it
 *   removed every id (the usual case), their dates deleted in the same transaction. Otherwise (an id that does not exist, the same id twice, a
 *   statement the server refuses) it is rolled back and each delete runs on its own, for its own
 *   204 or 404. When the database cannot be used (a timeout, a lost connection, a COMMIT that
 *   failed and may or may not have happened), every caller gets the error (503).
 *
 * Every call is answered within `deadlineMs` (see TurnBatcher).
 */
export class MysqlSpecialEventsRepository extends TypeOrmSpecialEventsRepository {
  private readonly inserts: TurnBatcher<SpecialEvent>;
  private readonly deletes: TurnBatcher<string>;

  constructor(
    events: Repository<SpecialEvent>,
    deadlineMs: number,
    private readonly binaryRead?: BinaryReader,
    participants?: EventWriteParticipants,
  ) {
    super(events, participants);
    this.inserts = new TurnBatcher((batch) => this.insertBatch(batch), deadlineMs);
    this.deletes = new TurnBatcher((batch) => this.deleteBatch(batch), deadlineMs);
  }

  /** Reads through the binary protocol when there is a pool to read from (see mysqlBinaryReader). */
  protected override read(sql: string, parameters: readonly unknown[]): Promise<EventRow[]> {
    return this.binaryRead ? (this.binaryRead(sql, parameters) as Promise<EventRow[]>) : super.read(sql, parameters);
  }

  override insert(event: SpecialEvent): Promise<boolean> {
    return this.inserts.add(event);
  }

  override delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    // A conditional delete is rare (If-Match) and has a condition of its own: not batched.
    return expected === undefined ? this.deletes.add(eventId) : super.delete(eventId, expected);
  }

  private async insertBatch(batch: readonly Pending<SpecialEvent>[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.insertAll(batch.map(({ item }) => item));
        for (const { resolve } of batch) resolve(true);
        return;
      } catch (error) {
        // Refused (or rolled back whole) by the server: nothing of the batch was stored, so each
        // event on its own below, with its own outcome. Anything else may have committed: 503.
        if (!isRefusedByServer(error) && !isRolledBack(error)) {
          for (const { reject } of batch) reject(error);
          return;
        }
      }
    }
    await this.oneByOne(batch, (event) => super.insert(event));
  }

  private async deleteBatch(batch: readonly Pending<string>[]): Promise<void> {
    const ids = batch.map(({ item }) => item);
    if (batch.length > 1 && new Set(ids).size === ids.length) {
      let deletedAll: boolean;
      try {
        deletedAll = await this.deleteAllOrNone(ids);
      } catch (error) {
        for (const { reject } of batch) reject(error);
        return;
      }
      if (deletedAll) {
        for (const { resolve } of batch) resolve(true);
        return;
      }
    }
    await this.oneByOne(batch, (eventId) => super.delete(eventId));
  }

  /**
   * Deletes all of `ids` in one transaction, or none: true when every one existed and the
   * transaction committed, false when it was rolled back because one did not exist or the server
   * refused the statement. Throws when the database could not be used, COMMIT included.
   * READ COMMITTED: ids that do not exist take no gap locks, which would hold up concurrent
   * creates until the rollback.
   */
  private async deleteAllOrNone(ids: readonly string[]): Promise<boolean> {
    const runner = this.events.manager.connection.createQueryRunner();
    try {
      try {
        await runner.connect();
        await runner.startTransaction('READ COMMITTED');
        const { affected } = await runner.manager.delete(SpecialEvent, { eventId: In([...ids]) });
        if (affected !== ids.length) {
          await runner.rollbackTransaction();
          return false;
        }
        await runner.manager.delete(SpecialEventDate, { eventId: In([...ids]) });
        await runStatements(
          runner.manager,
          ids.flatMap((eventId) => this.participants.statementsFor({ kind: 'deleted', eventId })),
        );
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        if (isRefusedByServer(error)) return false;
        throw error;
      }
      await runner.commitTransaction();
      return true;
    } finally {
      await runner.release();
    }
  }

  private async oneByOne<T>(batch: readonly Pending<T>[], write: (item: T) => Promise<boolean>): Promise<void> {
    await Promise.all(batch.map(({ item, resolve, reject }) => write(item).then(resolve, reject)));
  }
}

type BinaryReader = (sql: string, parameters: readonly unknown[]) => Promise<RowDataPacket[]>;

/**
 * Reads as prepared statements (mysql2 `execute`: MySQL's binary protocol). The text protocol,
 * which TypeORM's queries use, sends a DOUBLE as decimal text, and MariaDB writes it with 15
 * significant digits: 92007.34631975321 would read back as 92007.3463197532. The binary protocol
 * sends the 8 bytes themselves. Statements are prepared once per connection and kept (mysql2's
 * per-connection cache). A connection whose query timed out is destroyed, never returned to the
 * pool: its query may still be running there.
 */
export function mysqlBinaryReader(dataSource: DataSource): BinaryReader | undefined {
  const timeout = (dataSource.options as { maxQueryExecutionTime?: number }).maxQueryExecutionTime;
  return (sql, parameters) => {
    const pool = mysqlPoolOf(dataSource);
    if (!pool) return Promise.reject(new Error('The connection is not established'));
    dataSource.logger.logQuery(sql, [...parameters]);
    return new Promise((resolve, reject) => {
      pool.getConnection((acquireError: NodeJS.ErrnoException | null, connection: PoolConnection) => {
        if (acquireError) return reject(acquireError);
        connection.execute<RowDataPacket[]>({ sql, timeout }, [...parameters] as never, (error, rows) => {
          if (error) {
            if (error.fatal || error.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
            else connection.release();
            return reject(error);
          }
          connection.release();
          resolve(rows);
        });
      });
    });
  };
}
