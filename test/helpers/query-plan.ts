import type { ListQuery } from '../../src/special-events/special-events.repository.js';
import { listSql } from '../../src/special-events/special-events.sql.js';

/**
 * The query plan of the list's SQL (listSql, the statement the store runs) on SQLite (EXPLAIN
 * QUERY PLAN) or MySQL/MariaDB (EXPLAIN), and what in it would make a page cost more as the table
 * grows: a full scan of an events table, or a sort of every match. Used by
 * test/special-events/query-plan.e2e-spec.ts and by the benchmark at 1,000,000 events.
 */

export type PlanDatabase = 'sqlite' | 'mysql';
export type RunSql = (sql: string, parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>;

export interface ListPlan {
  readonly sql: string;
  /** One line per plan row: SQLite's `detail`; MySQL's table, access type, key, rows and Extra. */
  readonly lines: readonly string[];
  /** Why the plan would not keep a page's cost flat (empty: it does). */
  readonly problems: readonly string[];
}

export async function explainList(database: PlanDatabase, run: RunSql, query: ListQuery): Promise<ListPlan> {
  const { sql, parameters } = await listStatement(database, run, query);
  return explain(database, run, sql, parameters, query.start !== undefined || query.end !== undefined);
}

/** The statement the store runs for `query` on this database (SQLite, MariaDB or MySQL). */
export async function listStatement(
  database: PlanDatabase,
  run: RunSql,
  query: ListQuery,
): Promise<{ sql: string; parameters: (string | number)[] }> {
  if (database === 'sqlite') return listSql(query, { walk: 'subquery' });
  const [row] = await run('SELECT VERSION() AS version', []);
  return listSql(query, /mariadb/i.test(String(row?.version)) ? { walk: 'rows-examined' } : {});
}

/** The plan of any statement, judged as a list with (`ranged`) or without a date range. */
export async function explain(
  database: PlanDatabase,
  run: RunSql,
  sql: string,
  parameters: readonly unknown[],
  ranged: boolean,
): Promise<ListPlan> {
  if (database === 'sqlite') {
    const rows = await run(`EXPLAIN QUERY PLAN ${sql}`, parameters);
    const lines = rows.map((row) => String(row.detail));
    return { sql, lines, problems: sqliteProblems(lines, ranged) };
  }
  const rows = await run(`EXPLAIN ${sql}`, parameters);
  const lines = rows.map(
    (row) =>
      `${String(row.table)}: type=${String(row.type)} key=${String(row.key)} rows=${String(row.rows)} extra=${String(row.Extra)}`,
  );
  return { sql, lines, problems: mysqlProblems(rows, ranged) };
}

/**
 * SQLite: with a range, the date index (special_event_dates' primary key) is searched by date and
 * each event found by its primary key; without one, the events are walked in the order index.
 * Never a SCAN of special_events in table order, never a temporary B-tree for ORDER BY.
 */
function sqliteProblems(lines: readonly string[], ranged: boolean): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    if (/TEMP B-TREE/.test(line)) problems.push(`sorts every match: ${line}`);
    if (/^SCAN (e|f|special_events|special_event_dates)$/.test(line)) problems.push(`full table scan: ${line}`);
  }
  if (ranged) {
    // `w`: the bounded walk (a co-routine that the page reads in index order, stopping early).
    if (!lines.some((line) => /^SEARCH [dw] USING PRIMARY KEY \(event_date>\?/.test(line))) {
      problems.push('the date index is not searched by date (no "SEARCH w USING PRIMARY KEY (event_date>?...")');
    }
    if (!lines.some((line) => line.startsWith('SEARCH e USING PRIMARY KEY (event_id=?)'))) {
      problems.push('events are not found by their primary key (no "SEARCH e USING PRIMARY KEY (event_id=?)")');
    }
  } else if (!lines.some((line) => /^(SCAN|SEARCH) e USING INDEX IDX_special_events_sort/.test(line))) {
    problems.push('events are not walked in the order index IDX_special_events_sort');
  }
  return problems;
}

/**
 * MySQL/MariaDB: with a range, the date table is a `range` read of its primary key and each event
 * an `eq_ref` of its own; without one, the order index is read in order. Never type ALL (a full
 * scan), never a filesort or a temporary table.
 */
function mysqlProblems(rows: readonly Record<string, unknown>[], ranged: boolean): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    if (row.type === 'ALL') problems.push(`full table scan of ${String(row.table)}`);
    if (/filesort|temporary/i.test(String(row.Extra))) {
      problems.push(`sorts every match (${String(row.table)}: ${String(row.Extra)})`);
    }
  }
  const byTable = (table: string) => rows.find((row) => row.table === table);
  if (ranged) {
    const dates = byTable('d');
    if (dates?.type !== 'range' || dates.key !== 'PRIMARY') {
      problems.push(`the date index is not read as a range of its primary key (d: ${JSON.stringify(dates)})`);
    }
    const events = byTable('e');
    if (events?.type !== 'eq_ref' || events.key !== 'PRIMARY') {
      problems.push(`events are not found by their primary key (e: ${JSON.stringify(events)})`);
    }
  } else if (byTable('e')?.key !== 'IDX_special_events_sort') {
    problems.push(`events are not read in the order index (e: ${JSON.stringify(byTable('e'))})`);
  }
  return problems;
}
