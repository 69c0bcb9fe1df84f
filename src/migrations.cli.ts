import './refuse-unsupported-node.js';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ConfigError, type DatabaseConfig, parseDatabaseUrl } from './config/app-config.js';
import { buildDataSourceOptions, DEFAULT_POOL, ENTITY_FILES } from './database/database-options.js';
import { MIGRATIONS } from './features.js';
import {
  type GeneratedQueries,
  kebabCase,
  migrationList,
  migrationListName,
  migrationSource,
  registerMigration,
  withMysqlCharset,
} from './database/migration-files.js';

const USAGE = `Usage: npm run migration:generate -- <feature> <Name>

Compares the entities with the schema the committed migrations build, on a scratch SQLite file
and a scratch MySQL database (MIGRATION_MYSQL_URL, default mysql://root@127.0.0.1:3306, dropped
afterwards), and writes one migration per driver under the same name and timestamp into
src/<feature>/migrations/{sqlite,mysql}/, registered in src/<feature>/<feature>.migrations.ts
(created when the feature has none yet: then add its list to the feature's line in
src/features.ts). MySQL tables get utf8mb4 with binary collation.`;

const SRC = import.meta.dirname;

/**
 * The statements that bring a database built by the migrations up to the entities. On a MariaDB
 * server TypeORM must be told so: it reads MariaDB's column defaults (a nullable column's is the
 * text NULL) only under its `mariadb` type, and otherwise proposes to change every such column.
 */
async function schemaChanges(database: DatabaseConfig, mariadb = false): Promise<GeneratedQueries> {
  const options = buildDataSourceOptions(database, true, DEFAULT_POOL, MIGRATIONS);
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
  const [feature, name] = argv;
  if (argv.length !== 2 || feature === undefined || name === undefined || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    process.stderr.write(`${USAGE}\n\nThe name is one word in PascalCase, e.g. AddTicketNotes.\n`);
    return 2;
  }
  if (!/^[a-z][a-z0-9-]*$/.test(feature) || !existsSync(join(SRC, feature))) {
    process.stderr.write(`${USAGE}\n\nsrc/${feature}/ is not a feature's folder.\n`);
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
  for (const driver of ['sqlite', 'mysql'] as const) {
    mkdirSync(join(SRC, feature, 'migrations', driver), { recursive: true });
    writeFileSync(
      join(SRC, feature, 'migrations', driver, file),
      migrationSource(name, timestamp, driver === 'sqlite' ? sqlite : mysql),
    );
  }
  const list = join(SRC, feature, `${feature}.migrations.ts`);
  const created = !existsSync(list);
  if (created) writeFileSync(list, migrationList(feature));
  writeFileSync(list, registerMigration(readFileSync(list, 'utf8'), name, timestamp));
  process.stdout.write(
    `Wrote src/${feature}/migrations/sqlite/${file} and src/${feature}/migrations/mysql/${file}, ` +
      `registered in src/${feature}/${feature}.migrations.ts.\n` +
      (created ? `Add \`migrations: ${migrationListName(feature)}\` to ${feature}'s line in src/features.ts.\n` : '') +
      'Review both, then run the tests: each migration runs on its own database there.\n',
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2), process.env);
