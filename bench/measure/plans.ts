/**
 * The plans of the list's statements on a benchmark database (EXPLAIN QUERY PLAN on SQLite,
 * EXPLAIN on MySQL/MariaDB), as the service would run them there: without an ANALYZE the service
 * never runs either. test/helpers/query-plan.ts judges them as test/special-events/query-plan.e2e-spec.ts does.
 */
import { v7 as uuidv7 } from 'uuid';
import type { ListQuery } from '../../src/special-events/special-events.repository.js';
import { explainList, type RunSql } from '../../test/helpers/query-plan.js';
import type { DatabaseKind } from '../servers/databases.js';
import { onDatabase } from '../workloads/seed.js';

export interface PlanRecord {
  readonly database: DatabaseKind;
  readonly storedEvents: number;
  readonly name: string;
  readonly sql: string;
  readonly lines: readonly string[];
  readonly problems: readonly string[];
}

/** The list workloads' statements: LIST_PATH's range, a page of it deep, and no range. */
const QUERIES: readonly [string, ListQuery][] = [
  ['date range, first page', { start: '2026-03-01', end: '2026-03-31', limit: 20 }],
  [
    'date range, a page deep (cursor)',
    { start: '2026-03-01', end: '2026-03-31', limit: 20, after: { key: '2026-03-14', eventId: uuidv7() } },
  ],
  ['no range, first page', { limit: 20 }],
];

export async function listPlans(databaseUrl: string, storedEvents: number): Promise<PlanRecord[]> {
  const explainAll = async (database: DatabaseKind, run: RunSql): Promise<PlanRecord[]> => {
    const plans: PlanRecord[] = [];
    for (const [name, query] of QUERIES) {
      plans.push({ database, storedEvents, name, ...(await explainList(database, run, query)) });
    }
    return plans;
  };
  return onDatabase(
    databaseUrl,
    (db) =>
      explainAll('sqlite', (sql, parameters) =>
        Promise.resolve(db.prepare(sql).all(...parameters) as Record<string, unknown>[]),
      ),
    (connection) =>
      explainAll('mysql', async (sql, parameters) => {
        const [rows] = await connection.query(sql, [...parameters]);
        return rows as Record<string, unknown>[];
      }),
    true,
  );
}
