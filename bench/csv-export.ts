/**
 * `npm run bench:csv-export`: the CSV export of a ticket search (`GET /tickets` with
 * `Accept: text/csv`) on the compiled service, on SQLite and, when MYSQL_TEST_URL answers, MySQL.
 * For each: start the service on a new database, write TICKETS tickets straight into it, read the
 * service's VmRSS at rest, export every ticket once as a client reading as fast as it can while
 * VmRSS is sampled every 20 ms, and print the rows, the rows per second and the growth of RSS
 * (the peak during the export minus the RSS at rest), then each database's verdict on the targets
 * of issue 49: the median of the rounds' rows/s ≥ 50,000, and the largest growth ≤ 50 MiB.
 * `-- --tickets N` changes the count, `-- --no-mysql` skips MySQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { v7 as uuidv7 } from 'uuid';
import { buildService } from '../test/helpers/built-service.js';
import { idleRssMiB, RssSampler } from './measure/rss.js';
import { cleanUpOnSignals, runCleanup } from './servers/cleanup.js';
import {
  type BenchDatabase,
  mysqlDatabase,
  mysqlProblem,
  sqliteDatabase,
  VALID_AUTHORIZATION,
} from './servers/databases.js';
import { pinSelf } from './servers/process.js';
import { startServer } from './servers/start.js';

const ARGS = process.argv.slice(2).join(' ');
const TICKETS = Number(/--tickets[= ](\d+)/.exec(ARGS)?.[1] ?? 100_000);
const NO_MYSQL = /(^| )--no-mysql( |$)/.test(ARGS);
/** Issue 49: an export streams at least this many rows per second... */
const LEAST_ROWS_PER_SECOND = 50_000;
/** ...and grows the service's RSS by at most this many MiB. */
const MOST_GROWTH_MIB = 50;
const BATCH = 1000;
/** Exports measured one after another on one service: a leak would grow from one to the next. */
const ROUNDS = 4;
const COLUMNS =
  'ticket_id, ticket_type, ticket_date, event_id, email, price_paid, confirmation_code, status, created_at';

/** A plausible sold ticket: general admission on one of 30 days, an address on one in two. */
function ticketRow(index: number): unknown[] {
  const day = `2027-01-${String(1 + (index % 30)).padStart(2, '0')}`;
  const email = index % 2 === 0 ? `visitor-${index}@example.com` : null;
  const code = `ticket-${uuidv7().replaceAll('-', '').slice(0, 22)}`;
  return [uuidv7(), 'general', day, null, email, 25, code, 'active', Date.now()];
}

async function seed(database: BenchDatabase): Promise<void> {
  const placeholders = (rows: number) => Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  if (database.kind === 'sqlite') {
    const db = new Database(database.url.slice('sqlite:'.length));
    try {
      const insert = db.prepare(`INSERT INTO tickets (${COLUMNS}) VALUES ${placeholders(BATCH)}`);
      db.transaction(() => {
        for (let start = 0; start < TICKETS; start += BATCH) {
          insert.run(Array.from({ length: BATCH }, (_, i) => ticketRow(start + i)).flat());
        }
      })();
    } finally {
      db.close();
    }
    return;
  }
  const connection = await createConnection({ uri: database.url });
  try {
    for (let start = 0; start < TICKETS; start += BATCH) {
      const rows = Array.from({ length: BATCH }, (_, i) => ticketRow(start + i));
      await connection.query(`INSERT INTO tickets (${COLUMNS}) VALUES ${placeholders(BATCH)}`, rows.flat());
    }
  } finally {
    await connection.end();
  }
}

/** Exports the tickets of `query` as a client reading as fast as it can: the rows received. */
async function exportAll(baseUrl: string, query: string): Promise<number> {
  const res = await fetch(`${baseUrl}/tickets${query}`, {
    headers: { Authorization: VALID_AUTHORIZATION, Accept: 'text/csv' },
  });
  if (res.status !== 200 || res.body === null) throw new Error(`export answered ${res.status}`);
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines++;
  }
  return lines - 1;
}

/** What the rounds on one database found. */
interface Rounds {
  readonly rowsPerSecond: number[];
  readonly growthMiB: number[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The verdict lines of one database's rounds on the two targets. */
function verdicts(kind: string, rounds: Rounds): string {
  const rate = median(rounds.rowsPerSecond);
  const growth = Math.max(...rounds.growthMiB);
  const verdict = (pass: boolean): string => (pass ? 'PASS' : 'FAIL');
  return (
    `${verdict(rate >= LEAST_ROWS_PER_SECOND)} ${kind}: export of ${TICKETS} tickets ≥ ${LEAST_ROWS_PER_SECOND} rows/s ` +
    `(median of ${rounds.rowsPerSecond.length} exports): ${Math.round(rate)} rows/s\n` +
    `${verdict(growth <= MOST_GROWTH_MIB)} ${kind}: RSS growth during an export ≤ ${MOST_GROWTH_MIB} MiB ` +
    `(largest of ${rounds.growthMiB.length}): +${growth.toFixed(1)} MiB\n`
  );
}

async function measure(entry: string, dir: string, database: BenchDatabase): Promise<Rounds> {
  const found: Rounds = { rowsPerSecond: [], growthMiB: [] };
  const server = await startServer({ dir, pinning: pinSelf(), entry }, database.kind, database);
  try {
    await seed(database);
    // Warmed up first (one small export: the code paths compiled, the pools open), so that what
    // grows is what an export of every ticket costs, not the first request's.
    await exportAll(server.baseUrl, '?ticketDate=2027-01-01');
    const atRest = (await idleRssMiB(server)) ?? 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const sampler = new RssSampler(server.pid, 20);
      sampler.start();
      const started = performance.now();
      const rows = await exportAll(server.baseUrl, '');
      const seconds = (performance.now() - started) / 1000;
      const peak = sampler.stop();
      if (rows !== TICKETS) throw new Error(`export sent ${rows} rows of ${TICKETS}`);
      found.rowsPerSecond.push(rows / seconds);
      found.growthMiB.push(peak - atRest);
      process.stdout.write(
        `${database.kind}, export ${round}: ${rows} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds)} rows/s; ` +
          `RSS at rest ${atRest.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB: +${(peak - atRest).toFixed(1)} MiB\n`,
      );
    }
  } finally {
    await server.stop();
    await database.drop();
  }
  return found;
}

cleanUpOnSignals();
const dir = mkdtempSync(join(tmpdir(), 'bench-csv-'));
try {
  const entry = buildService();
  const results: [string, Rounds][] = [['sqlite', await measure(entry, dir, sqliteDatabase(dir, 'csv.sqlite'))]];
  const problem = NO_MYSQL ? '--no-mysql' : await mysqlProblem();
  if (problem === null) results.push(['mysql', await measure(entry, dir, await mysqlDatabase())]);
  else process.stdout.write(`mysql: skipped (${problem})\n`);
  process.stdout.write('\nTargets (issue 49):\n');
  for (const [kind, rounds] of results) process.stdout.write(verdicts(kind, rounds));
} finally {
  await runCleanup();
  rmSync(dir, { recursive: true, force: true });
}
