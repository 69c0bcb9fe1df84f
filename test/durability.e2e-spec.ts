import Database from 'better-sqlite3';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { sqliteConnectionOf } from '../src/database/driver-handles.js';
import { rowToEvent } from './helpers/create-load.js';
import { describeDurability } from './helpers/durability.js';
import { validEvent } from './helpers/problem-assertions.js';
import { AUTH, useTestApp } from './helpers/test-app.js';

/** Crash consistency on SQLite (WAL + synchronous=FULL): see describeDurability. */
describeDurability('sqlite', (database) => {
  const reader = new Database(database.url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
  try {
    const integrity: unknown = reader.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`integrity_check after the kill: ${String(integrity)}`);
    return Promise.resolve(
      (reader.prepare('SELECT * FROM special_events').all() as Record<string, unknown>[]).map(rowToEvent),
    );
  } finally {
    reader.close();
  }
});

/**
 * What the SIGKILL test cannot show: that a commit is flushed before its 201. SQLite fsyncs at
 * every commit only with synchronous=FULL (in WAL mode better-sqlite3 defaults to NORMAL, which a
 * power cut can undo), and the setting belongs to a connection: it is read back here from the
 * connection the app's writes use, as started and after the DataSource connects again.
 */
describe('every commit is flushed: the settings of the connection the writes use', () => {
  const t = useTestApp();

  function settings(): { journalMode: unknown; synchronous: unknown } {
    const db = sqliteConnectionOf(t.app.get(DataSource));
    if (db === undefined) throw new Error('no SQLite connection');
    return {
      journalMode: db.pragma('journal_mode', { simple: true }),
      // 2 is FULL (0 OFF, 1 NORMAL, 3 EXTRA).
      synchronous: db.pragma('synchronous', { simple: true }),
    };
  }

  it('WAL with synchronous=FULL, also on a new connection', async () => {
    expect(settings()).toEqual({ journalMode: 'wal', synchronous: 2 });
    const dataSource = t.app.get(DataSource);
    await dataSource.destroy();
    await dataSource.initialize();
    expect(settings()).toEqual({ journalMode: 'wal', synchronous: 2 });
    // The writes go through that connection: a create is answered and read back.
    const event = validEvent();
    const created = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
    expect(created.status).toBe(201);
    const [row] = (await dataSource.query('SELECT name FROM special_events WHERE event_id = ?', [event.eventId])) as {
      name: string;
    }[];
    expect(row).toEqual({ name: event.name });
  });
});
