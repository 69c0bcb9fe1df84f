import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { limitPlaceholder } from './sql-limit.js';

describe('limitPlaceholder', () => {
  it('on SQLite, one prepared statement takes a new LIMIT on every run, as a bare ? does', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
      const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
      for (let x = 1; x <= 5; x++) insert.run(x);
      const page = db.prepare(`SELECT x FROM t WHERE x >= ? ORDER BY x LIMIT ${limitPlaceholder('sqlite')}`);
      const bare = db.prepare('SELECT x FROM t WHERE x >= ? ORDER BY x LIMIT ?');
      for (const [from, limit] of [
        [1, 2],
        [2, 3],
        [1, 0],
        [3, 10],
        [1, 5],
      ]) {
        const rows = page.all(from, limit);
        expect(rows).toEqual(bare.all(from, limit));
        expect(rows.length).toBe(Math.max(0, Math.min(limit, 6 - from)));
      }
    } finally {
      db.close();
    }
  });

  it('is a bare placeholder on MySQL, which takes nothing else there', () => {
    expect(limitPlaceholder('mysql')).toBe('?');
  });
});
