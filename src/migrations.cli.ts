import './refuse-unsupported-node.js';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITY_FILES } from './database/database-options.js';
import { formatted, mysqlChanges, sqliteChanges } from './database/migration-generator.js';
import { MIGRATIONS } from './features.js';
import {
  kebabCase,
  migrationList,
  migrationListName,
  migrationSource,
  registerMigration,
} from './database/migration-files.js';

const USAGE = `Usage: npm run migration:generate -- <feature> <Name>

Compares the entities with the schema the committed migrations build, on a scratch SQLite file
and a scratch MySQL database (MIGRATION_MYSQL_URL, default mysql://root@127.0.0.1:3306, dropped
afterwards), and writes one migration per driver under the same name and timestamp into
src/<feature>/migrations/{sqlite,mysql}/, registered in src/<feature>/<feature>.migrations.ts
(created when the feature has none yet: then add its list to the feature's line in
src/features.ts). MySQL tables get utf8mb4 with binary collation.

A changed column keeps its values: MySQL modifies it in place, SQLite rebuilds the table with
its rows; NULLs get the new default before a column becomes NOT NULL; a narrower text column is
checked against the rows when the migration runs. What no generated statement can do safely (a
dropped or renamed column, a narrower integer, another change of type, NOT NULL without a
default) is refused, naming the migration to write by hand. Without a MySQL server, the SQLite
migration is written (not yet registered) and running the command again with a server writes
both.

Exit codes: 0 written or nothing to do, 1 refused or MySQL missing, 2 usage error.`;

const SRC = import.meta.dirname;

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
  const mysqlUrl = env.MIGRATION_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
  const sqlite = await sqliteChanges([ENTITY_FILES], MIGRATIONS);
  const mysql = await mysqlChanges(mysqlUrl, [ENTITY_FILES], MIGRATIONS);
  const refusals = [...new Set([...sqlite.refusals, ...(mysql.kind === 'changes' ? mysql.refusals : [])])];
  if (refusals.length > 0) {
    process.stderr.write(
      `Nothing written: these changes would lose data.\n${refusals.map((r) => `- ${r}\n`).join('')}`,
    );
    return 1;
  }
  if (sqlite.queries.up.length === 0 && (mysql.kind === 'unreachable' || mysql.queries.up.length === 0)) {
    process.stdout.write(
      mysql.kind === 'unreachable'
        ? `No changes on SQLite; MySQL not compared (no server at ${mysqlUrl}: ${mysql.reason}). Nothing written.\n`
        : 'No changes: the entities match what the migrations build, on both databases. Nothing written.\n',
    );
    return 0;
  }
  const folder = (driver: string): string => join(SRC, feature, 'migrations', driver);
  const timestamp = unpairedTimestamp(folder('sqlite'), folder('mysql'), kebabCase(name)) ?? Date.now();
  const file = `${timestamp}-${kebabCase(name)}.ts`;
  const written: string[] = [];
  for (const driver of ['sqlite', 'mysql'] as const) {
    const queries = driver === 'sqlite' ? sqlite.queries : mysql.kind === 'changes' ? mysql.queries : undefined;
    if (queries === undefined) continue;
    mkdirSync(folder(driver), { recursive: true });
    const path = join(folder(driver), file);
    writeFileSync(path, formatted(migrationSource(name, timestamp, queries), path));
    written.push(`src/${feature}/migrations/${driver}/${file}`);
  }
  if (mysql.kind === 'unreachable') {
    process.stdout.write(
      `Wrote ${written[0]} (not registered yet).\n` +
        // One line: what the MySQL migration needs.
        `MySQL: not written, no server at ${mysqlUrl} (${mysql.reason}); the MySQL migration needs one: ` +
        'start it (or set MIGRATION_MYSQL_URL) and run this command again, which writes both under this ' +
        'timestamp and registers them.\n',
    );
    return 1;
  }
  const list = join(SRC, feature, `${feature}.migrations.ts`);
  const created = !existsSync(list);
  if (created) writeFileSync(list, migrationList(feature));
  writeFileSync(list, formatted(registerMigration(readFileSync(list, 'utf8'), name, timestamp), list));
  process.stdout.write(
    `Wrote ${written.join(' and ')}, registered in src/${feature}/${feature}.migrations.ts.\n` +
      (created ? `Add \`migrations: ${migrationListName(feature)}\` to ${feature}'s line in src/features.ts.\n` : '') +
      'Review both, then run the tests: each migration runs on its own database there.\n',
  );
  return 0;
}

/**
 * The timestamp of a SQLite migration named `file` that has no MySQL twin yet (written when no
 * MySQL server answered), so that the next run writes the pair under it.
 */
function unpairedTimestamp(sqlite: string, mysql: string, file: string): number | undefined {
  if (!existsSync(sqlite)) return undefined;
  const unpaired = readdirSync(sqlite).find(
    (entry) => entry.endsWith(`-${file}.ts`) && /^\d{13}-/.test(entry) && !existsSync(join(mysql, entry)),
  );
  return unpaired === undefined ? undefined : Number(unpaired.slice(0, 13));
}

process.exitCode = await main(process.argv.slice(2), process.env);
