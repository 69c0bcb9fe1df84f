import './refuse-unsupported-node.js';
import { resolve } from 'node:path';
import { ConfigError, parseDatabaseUrl } from './config/app-config.js';
import { backupSqlite } from './database/sqlite-backup.js';

const USAGE = `Usage: npm run backup -- <file>

Copies the SQLite database DATABASE_URL names into <file> (which must not exist), while the
service runs: SQLite's online backup, so the copy holds every commit made before it began,
including those still in the write-ahead log. Restore: docs/operations.md#backup-and-restore.

MySQL/MariaDB: back up with the server's own tools (mysqldump --single-transaction, or
mariabackup), as docs/operations.md#backup-and-restore shows.

Exit codes: 0 done, 1 backup failed, 2 usage error.`;

export async function runBackupCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [file] = argv;
  if (argv.length !== 1 || file === undefined || file === '--help' || file === '-h') {
    process.stderr.write(`${USAGE}\n`);
    return argv[0] === '--help' || argv[0] === '-h' ? 0 : 2;
  }
  let source: string;
  try {
    const database = parseDatabaseUrl(env.DATABASE_URL ?? '');
    if (database.type !== 'sqlite') {
      process.stderr.write(
        `DATABASE_URL names a MySQL database: back it up with mysqldump --single-transaction or ` +
          `mariabackup (docs/operations.md#backup-and-restore).\n`,
      );
      return 2;
    }
    if (database.path === ':memory:')
      throw new ConfigError('DATABASE_URL', 'names an in-memory database: nothing to back up');
    source = database.path;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  try {
    const started = Date.now();
    const { pages } = await backupSqlite(source, resolve(file));
    process.stdout.write(`Backed up ${source} to ${file}: ${pages} pages in ${Date.now() - started} ms.\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await runBackupCli(process.argv.slice(2), process.env);
