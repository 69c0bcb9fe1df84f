import type Database from 'better-sqlite3';
import { type DataSource, In, type Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { DatabasePoolConfig } from '../config/app-config.js';
import { isRefusedByServer, isRolledBack, isUniqueViolation } from '../database/database-errors.js';
import { sqliteConnectionOf } from '../database/driver-handles.js';
import { SqliteGroupCommit } from '../database/sqlite-group-commit.js';
import { type Pending, TurnBatcher } from '../database/turn-batcher.js';
import { SpecialEvent } from './special-event.entity.js';

/**
 * Where special events are kept. Both methods resolve only once the change is durable, and leave
 * the decision about duplicates and missing events to the database (its primary key), never to a
 * check-then-act in code.
 */
export abstract class SpecialEventsStore {
  /** Stores the event: true, or false when an event with its `eventId` exists already. */
  abstract insert(event: SpecialEvent): Promise<boolean>;

  /** Deletes the event: true, or false when there was none. */
  abstract delete(eventId: string): Promise<boolean>;
}

/**
 * The store for the DataSource's driver (the two buildDataSourceOptions builds): prepared
 * statements and group commit on SQLite, batched writes on MySQL/MariaDB. A MySQL write gets as
 * long as waiting for a connection and one query may take (`pool`), and no longer.
 */
export function createSpecialEventsStore(dataSource: DataSource, pool: DatabasePoolConfig): SpecialEventsStore {
  return dataSource.options.type === 'better-sqlite3'
    ? new SqliteSpecialEventsStore(dataSource)
    : new MysqlSpecialEventsStore(dataSource.getRepository(SpecialEvent), pool.acquireTimeoutMs + pool.queryTimeoutMs);
}

/**
 * Through the TypeORM repository: `insert()`, never `save()` (which SELECTs first). The MySQL store
 * falls back to these single-row writes when a batch cannot decide for each of its requests.
 */
export class RepositorySpecialEventsStore extends SpecialEventsStore {
  constructor(protected readonly events: Repository<SpecialEvent>) {
    super();
  }

  async insert(event: SpecialEvent): Promise<boolean> {
    try {
      await this.events.insert(event);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async delete(eventId: string): Promise<boolean> {
    return Boolean((await this.events.delete({ eventId })).affected);
  }
}

/**
 * MySQL/MariaDB: writes that arrive in one turn of the event loop share one statement and one
 * commit (one redo-log flush) instead of one each; InnoDB's own group commit only merges commits
 * that happen to overlap. Each request still gets its own answer, decided by the database:
 *
 * - Creates: one multi-row INSERT. The statement is atomic: when the server refuses it (an
 *   `eventId` already stored or twice in the batch, a value it rejects, a deadlock or on Galera a
 *   certification conflict, which roll it back whole) it stored nothing, and every event of the
 *   batch is then inserted on its own, so duplicates get their 409 from the primary key. When its
 *   fate is unknown (a timeout, a lost connection: the INSERT may still commit), every caller gets
 *   the error (503) and nothing is retried: a retry would meet the batch's own rows and answer 409
 *   for ids the service generated itself.
 * - Deletes: one `DELETE … WHERE event_id IN (…)` in a transaction, committed only when it
 *   removed every id (the usual case). Otherwise (an id that does not exist, the same id twice, a
 *   statement the server refuses) it is rolled back and each delete runs on its own, for its own
 *   204 or 404. When the database cannot be used (a timeout, a lost connection, a COMMIT that
 *   failed and may or may not have happened), every caller gets the error (503).
 *
 * Every call is answered within `deadlineMs` (see TurnBatcher).
 */
export class MysqlSpecialEventsStore extends RepositorySpecialEventsStore {
  private readonly inserts: TurnBatcher<SpecialEvent>;
  private readonly deletes: TurnBatcher<string>;

  constructor(events: Repository<SpecialEvent>, deadlineMs: number) {
    super(events);
    this.inserts = new TurnBatcher((batch) => this.insertBatch(batch), deadlineMs);
    this.deletes = new TurnBatcher((batch) => this.deleteBatch(batch), deadlineMs);
  }

  override insert(event: SpecialEvent): Promise<boolean> {
    return this.inserts.add(event);
  }

  override delete(eventId: string): Promise<boolean> {
    return this.deletes.add(eventId);
  }

  private async insertBatch(batch: readonly Pending<SpecialEvent>[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.events.insert(batch.map(({ item }) => item));
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

/**
 * SQLite: statements prepared once from the entity's metadata (TypeORM would build the SQL and
 * go through its query runner on every call), run through the connection's group commit, so
 * that requests arriving together share one transaction and one fsync. A duplicate `eventId` is
 * `ON CONFLICT DO NOTHING` (no row changed) rather than an exception. Each statement is logged
 * through TypeORM's logger as its own queries are, in the request's context (its request id).
 */
export class SqliteSpecialEventsStore extends SpecialEventsStore {
  private readonly columns: readonly ColumnMetadata[];
  private current?: SqliteConnection;

  constructor(private readonly dataSource: DataSource) {
    super();
    this.columns = dataSource.getMetadata(SpecialEvent).columns;
  }

  insert(event: SpecialEvent): Promise<boolean> {
    const { driver } = this.dataSource;
    const values = this.columns.map(
      (column) => driver.preparePersistentValue(column.getEntityValue(event), column) as unknown,
    );
    const { groupCommit, insert } = this.connection();
    this.dataSource.logger.logQuery(insert.source);
    return groupCommit.writeStatement(() => insert.run(values).changes === 1);
  }

  delete(eventId: string): Promise<boolean> {
    const { groupCommit, delete: remove } = this.connection();
    this.dataSource.logger.logQuery(remove.source);
    return groupCommit.writeStatement(() => remove.run(eventId).changes === 1);
  }

  /**
   * The statements of the DataSource's current connection, prepared on first use (when the
   * migrations have surely run) and again whenever TypeORM opened a new connection (a DataSource
   * destroyed and initialized again). On a closed connection, preparing throws "The database
   * connection is not open", which is answered 503.
   */
  private connection(): SqliteConnection {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) throw new Error('The database connection is not open');
    if (this.current?.db !== db) {
      const metadata = this.dataSource.getMetadata(SpecialEvent);
      const { driver } = this.dataSource;
      const table = driver.escape(metadata.tableName);
      const names = this.columns.map((column) => driver.escape(column.databaseName));
      const primaryKey = driver.escape(metadata.primaryColumns[0].databaseName);
      this.current = {
        db,
        groupCommit: SqliteGroupCommit.of(db),
        insert: db.prepare(
          `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
        ),
        delete: db.prepare(`DELETE FROM ${table} WHERE ${primaryKey} = ?`),
      };
    }
    return this.current;
  }
}

interface SqliteConnection {
  readonly db: Database.Database;
  readonly groupCommit: SqliteGroupCommit;
  readonly insert: Database.Statement;
  readonly delete: Database.Statement;
}
