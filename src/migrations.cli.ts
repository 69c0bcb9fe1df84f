import './refuse-unsupported-node.js';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ConfigError, type DatabaseConfig, parseDatabaseUrl } from './config/app-config.js';
import { buildDataSourceOptions, ENTITY_FILES } from './database/database-options.js';
import {
  type GeneratedQueries,
  kebabCase,
  migrationSource,
  registerMigration,
  withMysqlCharset,
} from './database/migration-files.js';

const USAGE = `Usage: npm run migration:generate -- <Name>

Compares the entities with the schema the committed migrations build, on a scratch SQLite file
and a scratch MySQL database (MIGRATION_MYSQL_URL, default mysql://root@127.0.0.1:3306, dropped
afterwards), and writes one migration per driver under the same name and timestamp, registered in
src/database/database-options.ts. MySQL tables get utf8mb4 with binary collation.`;

const DATABASE = join(import.meta.dirname, 'database');

/**
 * The statements that bring a database built by the migrations up to the entities. On a MariaDB
 * server TypeORM must be told so: it reads MariaDB's column defaults (a nullable column's is the
 * text NULL) only under its `mariadb` type, and otherwise proposes to change every such column.
 */
async function schemaChanges(database: DatabaseConfig, mariadb = false): Promise<GeneratedQueries> {
  const options = buildDataSourceOptions(database, true);
  const dataSource = new DataSource(
    mariadb && options.type === 'mysql'
      ? { ...options, type: 'mariadb', entities: [ENTITY_FILES] }
      : { ...options, entities: [ENTITY_FILES] },
  );
  await dataSource.initialize();
  try {
    const { upQueries, downQueries } = await dataSource.driver.createSchemaBuilder().log();
    return { up: upQueries.map((query) => query.query), down: downQueries.reverse().map((query) => query.query) };
  } finally {
    await dataSource.destroy();
  }
}

async function sqliteChanges(): Promise<GeneratedQueries> {
  const dir = mkdtempSync(join(tmpdir(), 'museum-migration-'));
  try {
    return await schemaChanges({ type: 'sqlite', path: join(dir, 'scratch.sqlite') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mysqlChanges(serverUrl: string): Promise<GeneratedQueries> {
  const name = `museum_migration_${randomBytes(4).toString('hex')}`;
  const server = parseDatabaseUrl(`${serverUrl.replace(/\/+$/, '')}/${name}`, 'MIGRATION_MYSQL_URL');
  if (server.type !== 'mysql') throw new ConfigError('MIGRATION_MYSQL_URL', 'must be a mysql:// URL');
  const admin = new DataSource({ ...buildDataSourceOptions({ ...server, database: 'mysql' }), logging: false });
  await admin.initialize();
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const [{ version }] = (await admin.query('SELECT VERSION() AS version')) as { version: string }[];
    const changes = await schemaChanges(server, /mariadb/i.test(version));
    return { up: changes.up.map(withMysqlCharset), down: changes.down };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.destroy();
  }
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name] = argv;
  if (argv.length !== 1 || name === undefined || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    process.stderr.write(`${USAGE}\n\nThe name is one word in PascalCase, e.g. AddTickets.\n`);
    return 2;
  }
  Logger.overrideLogger(['warn', 'error', 'fatal']);
  const [sqlite, mysql] = [
    await sqliteChanges(),
    await mysqlChanges(env.MIGRATION_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306'),
  ];
  if (sqlite.up.length === 0 && mysql.up.length === 0) {
    process.stdout.write(
      'No changes: the entities match what the migrations build, on both databases. Nothing written.\n',
    );
    return 0;
  }
  const timestamp = Date.now();
  const file = `${timestamp}-${kebabCase(name)}.ts`;
  writeFileSync(join(DATABASE, 'migrations', 'sqlite', file), migrationSource(name, timestamp, sqlite));
  writeFileSync(join(DATABASE, 'migrations', 'mysql', file), migrationSource(name, timestamp, mysql));
  const options = join(DATABASE, 'database-options.ts');
  writeFileSync(options, registerMigration(readFileSync(options, 'utf8'), name, timestamp));
  process.stdout.write(
    `Wrote migrations/sqlite/${file} and migrations/mysql/${file}, registered in database-options.ts.\n` +
      'Review both, then run the tests: each migration runs on its own database there.\n',
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2), process.env);
