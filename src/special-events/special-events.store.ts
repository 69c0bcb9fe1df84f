import type Database from 'better-sqlite3';
import type { DataSource, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { isUniqueViolation } from '../database/database-errors.js';
import { SqliteGroupCommit } from '../database/sqlite-group-commit.js';
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
 * The store for the DataSource's driver: prepared statements and group commit on SQLite, batched
 * inserts on MySQL/MariaDB, the plain repository elsewhere.
 */
export function createSpecialEventsStore(dataSource: DataSource): SpecialEventsStore {
  switch (dataSource.options.type) {
    case 'better-sqlite3':
      return new SqliteSpecialEventsStore(dataSource);
    case 'mysql':
      return new MysqlSpecialEventsStore(dataSource.getRepository(SpecialEvent));
    default:
      return new RepositorySpecialEventsStore(dataSource.getRepository(SpecialEvent));
  }
}

/** Through the TypeORM repository: `insert()`, never `save()` (which SELECTs first). */
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

/** Most events one multi-row INSERT carries (a row is at most ~25 KiB; max_allowed_packet is 16 MiB+). */
export const MYSQL_INSERT_BATCH = 100;

interface PendingInsert {
  readonly event: SpecialEvent;
  readonly resolve: (inserted: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * MySQL/MariaDB: creates that arrive in one turn of the event loop go to the server as one
 * multi-row INSERT: one statement, one transaction, one redo-log flush for all of them, instead of
 * one each (InnoDB's own group commit only merges commits that happen to overlap). The statement is
 * atomic: if it fails (an `eventId` already stored or twice in the batch, or anything else) it
 * changed nothing, and every event of the batch is then inserted on its own, so that each request
 * gets its own answer. The primary key decides duplicates either way, never a check in code.
 */
export class MysqlSpecialEventsStore extends RepositorySpecialEventsStore {
  private pending: PendingInsert[] = [];
  private scheduled = false;

  override insert(event: SpecialEvent): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.pending.push({ event, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    while (this.pending.length > 0) void this.insertBatch(this.pending.splice(0, MYSQL_INSERT_BATCH));
  };

  private async insertBatch(batch: readonly PendingInsert[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.events.insert(batch.map(({ event }) => event));
        for (const { resolve } of batch) resolve(true);
        return;
      } catch {
        // Nothing of the batch was stored: each event on its own below, with its own outcome.
      }
    }
    await Promise.all(batch.map(({ event, resolve, reject }) => super.insert(event).then(resolve, reject)));
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
    return groupCommit.write(() => insert.run(values).changes === 1);
  }

  delete(eventId: string): Promise<boolean> {
    const { groupCommit, delete: remove } = this.connection();
    this.dataSource.logger.logQuery(remove.source);
    return groupCommit.write(() => remove.run(eventId).changes === 1);
  }

  /**
   * The statements of the DataSource's current connection, prepared on first use (when the
   * migrations have surely run) and again whenever TypeORM opened a new connection (a DataSource
   * destroyed and initialized again). On a closed connection, preparing throws "The database
   * connection is not open", which is answered 503.
   */
  private connection(): SqliteConnection {
    const db = (this.dataSource.driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
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
