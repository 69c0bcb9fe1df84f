import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TurnBudget } from '../../src/common/http/turn-budget.js';
import { loadConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/database-options.js';
import { requestDeadline } from '../../src/database/request-deadline.js';
import { Sql } from '../../src/database/sql.js';
import { WriteHealth } from '../../src/database/write-health.js';
import { useTestDatabase } from '../helpers/test-database.js';

/**
 * On MySQL what an anonymous read does after each answer of the database is paced by the turn
 * budget that paced its start (afterDatabaseWait in Sql.select): with the turn's budget spent, the
 * read goes on in a later turn. A request with credentials has no budget in its context and goes
 * on at once, as does work outside a request.
 */
describe('Sql.select on MySQL, paced for anonymous reads', () => {
  const database = useTestDatabase('mysql');
  let source: DataSource;
  let sql: Sql;

  beforeAll(async () => {
    source = new DataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database));
    await source.initialize();
    sql = new Sql(source, new WriteHealth());
  });

  afterAll(async () => {
    if (source?.isInitialized) await source.destroy();
  });

  /** Runs `read` in a request's context as app.setup.ts makes it, with `turns` when it is paced. */
  function inRequest<T>(read: () => Promise<T>, turns?: TurnBudget): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const response = { once: () => response };
      requestDeadline(5_000, turns)({} as never, response as never, () => {
        read().then(resolve, reject);
      });
    });
  }

  it('a paced read whose turn has spent its budget goes on through the budget, with its rows', async () => {
    let now = 0;
    const turns = new TurnBudget(15, () => now);
    const resume = vi.spyOn(turns, 'resume');
    // Each turn, until the read's answer has been made to wait: another unit opens the turn's
    // budget at 0 ms and spends it (20), as a flood's requests would; the answer comes in the next
    // poll phase, while that budget is still open. Then the clock stops, and the answer goes on.
    const spendEachTurn = (): void => {
      if (turns.waitingUnits > 0) {
        now = 0;
        return;
      }
      now = 0;
      turns.run(() => undefined, {} as never, {} as never, (() => undefined) as never);
      now = 20;
      setImmediate(spendEachTurn);
    };
    setImmediate(spendEachTurn);
    const rows = await inRequest(() => sql.select<{ one: number }>('SELECT 1 AS one'), turns);
    expect(rows.map((row) => Number(row.one))).toEqual([1]);
    expect(resume).toHaveBeenCalledTimes(1);
    expect(resume.mock.results[0].value).toBeInstanceOf(Promise);
    expect(turns.waitingUnits).toBe(0);
  });

  it('a read with credentials, and work outside a request, never ask the budget', async () => {
    const turns = new TurnBudget();
    const resume = vi.spyOn(turns, 'resume');
    await inRequest(() => sql.select('SELECT 1 AS one'));
    await sql.select('SELECT 1 AS one', [], { arrays: true });
    expect(resume).not.toHaveBeenCalled();
  });
});
