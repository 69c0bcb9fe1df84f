import { createConnection } from 'mysql2/promise';
import { rowToEvent, type StoredEvent } from '../helpers/create-load.js';
import { describeDurability } from '../helpers/durability.js';
import { MYSQL_TEST_URL } from '../helpers/test-database.js';

/**
 * Durability on MySQL: transactions of the killed process that had not committed are rolled back
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
