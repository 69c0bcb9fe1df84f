import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { sqliteConnectionOf } from './driver-handles.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';

/**
 * Plain SQL with `?` placeholders for a module's own tables, the same text on SQLite and MySQL:
 * on SQLite, statements are prepared once and writes join the connection's group commit (one
 * fsync shared with the requests' writes); on MySQL they go through TypeORM's pool.
 */
export class SqlStatements {
  private prepared?: { db: Database.Database; statements: Map<string, Database.Statement> };

  constructor(private readonly dataSource: DataSource) {}

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async select<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) return (await this.dataSource.query(sql, [...parameters])) as T[];
    return this.statement(db, sql).all(...parameters) as T[];
  }

  /** Runs one write statement; resolves with the rows it changed, once durable. */
  async execute(sql: string, parameters: readonly unknown[] = []): Promise<number> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) {
      const runner = this.dataSource.createQueryRunner();
      try {
        const { affected } = await runner.query(sql, [...parameters], true);
        return affected ?? 0;
      } finally {
        await runner.release();
      }
    }
    const statement = this.statement(db, sql);
    return SqliteGroupCommit.of(db).writeStatement(() => statement.run(...parameters).changes);
  }

  /**
   * Runs the statements in one transaction, all or none; resolves with the rows each changed. On
   * SQLite the unit may run twice (the group commit's retry), so it is only these statements.
   */
  async transaction(statements: readonly { sql: string; parameters: readonly unknown[] }[]): Promise<number[]> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) {
      return this.dataSource.transaction(async (manager) => {
        const changed: number[] = [];
        for (const { sql, parameters } of statements) {
          const result = (await manager.query(sql, [...parameters])) as { affectedRows?: number };
          changed.push(result.affectedRows ?? 0);
        }
        return changed;
      });
    }
    const prepared = statements.map(({ sql, parameters }) => ({ statement: this.statement(db, sql), parameters }));
    return SqliteGroupCommit.of(db).write(() =>
      prepared.map(({ statement, parameters }) => statement.run(...parameters).changes),
    );
  }

  private statement(db: Database.Database, sql: string): Database.Statement {
    if (this.prepared?.db !== db) this.prepared = { db, statements: new Map() };
    let statement = this.prepared.statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      this.prepared.statements.set(sql, statement);
    }
    this.dataSource.logger.logQuery(sql);
    return statement;
  }
}
