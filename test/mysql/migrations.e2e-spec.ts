import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { createTestDatabase, MYSQL_TEST_URL, type TestDatabase } from '../helpers/test-database.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run migration:* against MySQL', () => {
  let database: TestDatabase;
  const npm = (script: string) =>
    execFileSync('npm', ['run', '-s', script], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url },
      encoding: 'utf8',
    });
  const columns = async () => {
    const connection = await createConnection({ uri: MYSQL_TEST_URL });
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME
           FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ('special_events', 'users')
          ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [database.name],
      );
      return rows;
    } finally {
      await connection.end();
    }
  };

  beforeAll(async () => {
    // Created latin1 on purpose (see createTestDatabase): the migration must not depend on it.
    database = await createTestDatabase('mysql');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('creates utf8mb4 tables whose columns hold every value validation accepts, even in a latin1 database', async () => {
    expect(npm('migration:run')).toContain('InitialSchema1763800000000');
    const byColumn = Object.fromEntries((await columns()).map((row) => [`${row.TABLE_NAME}.${row.COLUMN_NAME}`, row]));
    expect(byColumn['special_events.name']).toMatchObject({ COLUMN_TYPE: 'varchar(200)', CHARACTER_SET_NAME: 'utf8mb4' });
    expect(byColumn['special_events.location']).toMatchObject({ COLUMN_TYPE: 'varchar(200)', CHARACTER_SET_NAME: 'utf8mb4' });
    expect(byColumn['special_events.event_description']).toMatchObject({ COLUMN_TYPE: 'varchar(5000)', CHARACTER_SET_NAME: 'utf8mb4' });
    expect(byColumn['special_events.price'].COLUMN_TYPE).toBe('double');
    // MySQL 8: json; MariaDB: JSON is an alias of longtext (utf8mb4, with a json_valid check).
    expect(['json', 'longtext']).toContain(byColumn['special_events.dates'].COLUMN_TYPE);
    expect(byColumn['special_events.event_id'].COLUMN_TYPE).toBe('varchar(36)');
    expect(byColumn['users.username']).toMatchObject({ COLUMN_TYPE: 'varchar(64)', CHARACTER_SET_NAME: 'utf8mb4', COLLATION_NAME: 'utf8mb4_bin' });
    expect(byColumn['users.role']).toMatchObject({ COLUMN_TYPE: 'varchar(16)', CHARACTER_SET_NAME: 'ascii' });
    expect(npm('migration:show')).toMatch(/\[X\] \d+ InitialSchema1763800000000/);
  }, 180_000);

  it('gives existing users the editor role, so no one loses access on upgrade', async () => {
    // Back to the schema before roles (and idempotency keys) existed, with a user in it.
    npm('migration:revert');
    npm('migration:revert');
    expect(Object.keys(Object.fromEntries((await columns()).map((row) => [row.COLUMN_NAME, true])))).not.toContain('role');
    const connection = await createConnection({ uri: `${MYSQL_TEST_URL}/${database.name}` });
    try {
      await connection.query('INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, ?, 1, 1)', ['veteran', 'x']);
      expect(npm('migration:run')).toContain('UserRoles1763900000000');
      const [rows] = await connection.query<RowDataPacket[]>('SELECT username, role FROM users');
      expect(rows.map((row) => ({ ...row }))).toEqual([{ username: 'veteran', role: 'editor' }]);
      await connection.query('DELETE FROM users');
    } finally {
      await connection.end();
    }
  }, 180_000);

  it('reverts and re-applies cleanly', async () => {
    for (let migration = 0; migration < 3; migration++) npm('migration:revert');
    expect(await columns()).toEqual([]);
    expect(npm('migration:show')).toMatch(/\[ \] InitialSchema1763800000000/);
    npm('migration:run');
    expect((await columns()).length).toBe(11);
  }, 180_000);
});
