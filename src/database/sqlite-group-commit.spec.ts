import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareSqlite } from './database-options.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';

describe('SqliteGroupCommit', () => {
  let dir: string;
  let db: Database.Database;
  let reader: Database.Database;
  let commits: number;
  let savepoints: number;
  let failNextCommit: boolean;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const file = join(dir, 'test.sqlite');
    db = new Database(file, { timeout: 0 });
    prepareSqlite(db);
    db.exec('CREATE TABLE items (id TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID');
    // Counts the COMMITs the group commit runs (its statements are prepared through db.prepare).
    commits = 0;
    savepoints = 0;
    failNextCommit = false;
    const prepare = db.prepare.bind(db) as (source: string) => Database.Statement;
    db.prepare = ((source: string) => {
      const statement = prepare(source);
      if (source.startsWith('SAVEPOINT')) {
        const runSavepoint = statement.run.bind(statement) as () => Database.RunResult;
        statement.run = (() => {
          savepoints++;
          return runSavepoint();
        }) as Database.Statement['run'];
      }
      if (source !== 'COMMIT') return statement;
      const run = statement.run.bind(statement) as () => Database.RunResult;
      statement.run = (() => {
        commits++;
        if (failNextCommit) {
          failNextCommit = false;
          throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        }
        return run();
      }) as Database.Statement['run'];
      return statement;
    }) as Database.Database['prepare'];
    reader = new Database(file, { readonly: true });
  });

  afterEach(() => {
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert =
    (id: string, value = 1) =>
    () =>
      db.prepare('INSERT INTO items (id, value) VALUES (?, ?)').run(id, value).changes;
  const committedIds = (): string[] =>
    (reader.prepare('SELECT id FROM items ORDER BY id').all() as { id: string }[]).map((row) => row.id);

  it('writes queued in one turn share one transaction and one COMMIT', async () => {
    const group = SqliteGroupCommit.of(db);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((id) => group.write(insert(id))));
    expect(results).toEqual([1, 1, 1, 1]);
    expect(commits).toBe(1);
    expect(committedIds()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('writes of later turns go into later transactions', async () => {
    const group = SqliteGroupCommit.of(db);
    await group.write(insert('a'));
    await group.write(insert('b'));
    expect(commits).toBe(2);
  });

  it('resolves only once the write is committed: another connection already sees it', async () => {
    const group = SqliteGroupCommit.of(db);
    let seenInsideUnit: string[] = [];
    const done = group.write(() => {
      insert('x')();
      seenInsideUnit = committedIds();
      return db.inTransaction;
    });
    expect(committedIds()).toEqual([]);
    await expect(done).resolves.toBe(true);
    expect(seenInsideUnit).toEqual([]);
    expect(committedIds()).toEqual(['x']);
  });

  it('a unit that throws is undone on its own; the others of its batch commit', async () => {
    const group = SqliteGroupCommit.of(db);
    await group.write(insert('taken'));
    const outcomes = await Promise.allSettled([
      group.write(insert('first')),
      // Two statements: the first succeeds, the second violates the primary key. Neither stays.
      group.write(() => {
        insert('half')();
        return insert('taken')();
      }),
      group.write(insert('last')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(committedIds()).toEqual(['first', 'last', 'taken']);
    // The batch ran again with a savepoint around each unit of several statements, in one COMMIT.
    expect(savepoints).toBe(3);
    expect(commits).toBe(2);
  });

  it('a batch in which nothing throws runs no savepoint, units of several statements included', async () => {
    const group = SqliteGroupCommit.of(db);
    const twoRows = (id: string) => () => insert(`${id}-1`)() + insert(`${id}-2`)();
    const results = await Promise.all([group.write(twoRows('a')), group.write(twoRows('b')), group.write(insert('c'))]);
    expect(results).toEqual([2, 2, 1]);
    expect(savepoints).toBe(0);
    expect(commits).toBe(1);
    expect(committedIds()).toEqual(['a-1', 'a-2', 'b-1', 'b-2', 'c']);
  });

  it('a one-statement unit that fails is undone by SQLite alone; the others of its batch commit', async () => {
    const group = SqliteGroupCommit.of(db);
    await group.write(insert('taken'));
    const outcomes = await Promise.allSettled([
      group.writeStatement(insert('first')),
      // One statement of two rows, the second a duplicate: the statement is undone whole.
      group.writeStatement(
        () => db.prepare("INSERT INTO items (id, value) VALUES ('half', 1), ('taken', 1)").run().changes,
      ),
      group.write(insert('middle')),
      group.writeStatement(insert('last')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(commits).toBe(2);
    expect(committedIds()).toEqual(['first', 'last', 'middle', 'taken']);
  });

  it('a one-statement unit whose error ended the transaction fails the whole batch; nothing is kept', async () => {
    const group = SqliteGroupCommit.of(db);
    const outcomes = await Promise.allSettled([
      group.writeStatement(insert('a')),
      group.writeStatement(() => {
        // What an I/O error or a full disk can do: SQLite rolls the whole transaction back.
        db.exec('ROLLBACK');
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }),
      group.writeStatement(insert('b')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_FULL' });
    }
    expect(db.inTransaction).toBe(false);
    expect(committedIds()).toEqual([]);
    await expect(group.writeStatement(insert('c'))).resolves.toBe(1);
    expect(committedIds()).toEqual(['c']);
  });

  it('when the transaction cannot start, every write of the batch fails with that error and nothing is kept', async () => {
    const group = SqliteGroupCommit.of(db);
    const other = new Database(join(dir, 'test.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const outcomes = await Promise.allSettled([group.write(insert('a')), group.write(insert('b'))]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' });
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(db.inTransaction).toBe(false);
    expect(committedIds()).toEqual([]);
    // The connection is usable again once the lock is gone (after the fail-fast pause).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(group.write(insert('c'))).resolves.toBe(1);
    expect(committedIds()).toEqual(['c']);
  });

  it('when COMMIT fails, no write of the batch is acknowledged, and none is kept', async () => {
    const group = SqliteGroupCommit.of(db);
    failNextCommit = true;
    const outcomes = await Promise.allSettled([group.write(insert('a')), group.write(insert('b'))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_IOERR' });
    expect(db.inTransaction).toBe(false);
    expect(committedIds()).toEqual([]);
    await expect(group.write(insert('c'))).resolves.toBe(1);
    expect(committedIds()).toEqual(['c']);
  });

  it('never runs inside a transaction someone else keeps open on the connection; waits for its end', async () => {
    const group = SqliteGroupCommit.of(db);
    db.exec('BEGIN');
    insert('theirs')();
    let settled = false;
    const mine = group.write(insert('mine')).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    db.exec('ROLLBACK');
    await expect(mine).resolves.toBe(1);
    expect(committedIds()).toEqual(['mine']);
  });

  it('is one per connection', () => {
    expect(SqliteGroupCommit.of(db)).toBe(SqliteGroupCommit.of(db));
  });
});
