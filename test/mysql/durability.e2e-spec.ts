import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { rowToEvent, type StoredEvent } from '../helpers/create-load.js';
import { describeDurability } from '../helpers/durability.js';
import { useTestApp } from '../helpers/test-app.js';
import { MYSQL_TEST_URL } from '../helpers/test-database.js';

/**
 * Crash consistency on MySQL: transactions of the killed process that had not committed are rolled back
 * by the server when its connections drop (see describeDurability).
 */
async function readEvents(databaseName: string): Promise<StoredEvent[]> {
  const connection = await createConnection({ uri: `${MYSQL_TEST_URL}/${databaseName}`, charset: 'utf8mb4' });
  try {
    const [rows] = await connection.query(
      'SELECT event_id, name, location, event_description, dates, price FROM special_events',
    );
    return (rows as Record<string, unknown>[]).map(rowToEvent);
  } finally {
    await connection.end();
  }
}

describeDurability('mysql', (database) => readEvents(database.name as string));

/**
 * What the SIGKILL test cannot show: that a commit is flushed before its 201. On InnoDB that is
 * innodb_flush_log_at_trx_commit=1 (the default), read here through the app's own connection.
 */
describe("every commit is flushed: the setting seen by the app's connection", () => {
  const t = useTestApp();

  it('innodb_flush_log_at_trx_commit is 1', async () => {
    const [row] = (await t.app.get(DataSource).query('SELECT @@innodb_flush_log_at_trx_commit AS flush')) as {
      flush: unknown;
    }[];
    expect(Number(row.flush)).toBe(1);
  });
});
