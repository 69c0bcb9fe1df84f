import Database from 'better-sqlite3';
import { rowToEvent } from './helpers/create-load.js';
import { describeDurability } from './helpers/durability.js';

/** Durability on SQLite (WAL + synchronous=FULL): see describeDurability. */
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
