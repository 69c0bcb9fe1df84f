import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { mayWaitForTurn, TurnBudget } from './turn-budget.js';

/** The check phase's queue so far has run (what was queued before this). */
const afterQueued = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A budget of 15 ms on a clock that each unit moves on by `unitMs`; `ran` lists the units' ids. */
function budgetOf(unitMs: number) {
  let now = 0;
  const ran: number[] = [];
  const budget = new TurnBudget(15, () => now);
  const unit = (request: Request, _response: Response, next: NextFunction): void => {
    now += unitMs;
    ran.push((request as unknown as { id: number }).id);
    next();
  };
  const nexts: number[] = [];
  const give = (id: number): void =>
    budget.run(unit, { id } as unknown as Request, {} as Response, (() => nexts.push(id)) as NextFunction);
  return { budget, give, ran, nexts };
}

describe('TurnBudget', () => {
  it('runs units at once, with their arguments, while the turn has budget and nothing waits', () => {
    const { budget, give, ran, nexts } = budgetOf(1);
    for (const id of [1, 2, 3]) give(id);
    expect(ran).toEqual([1, 2, 3]);
    expect(nexts).toEqual([1, 2, 3]);
    expect(budget.waitingUnits).toBe(0);
  });

  it('past the budget, leaves the rest to later turns in order, one budget each', async () => {
    const { budget, give, ran } = budgetOf(10);
    for (const id of [1, 2, 3, 4, 5]) give(id);
    // 0 and 10 ms into the turn: started; 20: over 15, so 3, 4 and 5 wait.
    expect(ran).toEqual([1, 2]);
    expect(budget.waitingUnits).toBe(3);
    await afterQueued();
    // The same turn's check phase: the budget the sockets' phase spent still holds, so nothing
    // starts there (a second budget in one turn is what took turns past 50 ms).
    expect(ran).toEqual([1, 2]);
    expect(budget.waitingUnits).toBe(3);
    await afterQueued();
    // The next turn's: a budget of its own, 3 and 4; 5 goes to the turn after.
    expect(ran).toEqual([1, 2, 3, 4]);
    expect(budget.waitingUnits).toBe(1);
    await afterQueued();
    expect(ran).toEqual([1, 2, 3, 4, 5]);
    expect(budget.waitingUnits).toBe(0);
  });

  it('gives the check phase what the sockets’ phase left of the budget, not a budget of its own', async () => {
    let now = 0;
    const budget = new TurnBudget(15, () => now);
    const ran: string[] = [];
    const unit = (request: Request, _response: Response, next: NextFunction): void => {
      ran.push(`${(request as unknown as { id: number }).id}@${now}`);
      next();
    };
    const give = (id: number): void => budget.run(unit, { id } as unknown as Request, {} as Response, () => undefined);
    give(1);
    now = 16;
    give(2);
    give(3);
    now = 17;
    await afterQueued();
    // Without the rule, 2 and 3 started here, a second budget in one turn.
    expect(ran).toEqual(['1@0']);
    await afterQueued();
    expect(ran).toEqual(['1@0', '2@17', '3@17']);
  });

  it('keeps the order: a unit given while others wait waits behind them, budget or not', async () => {
    const { budget, give, ran } = budgetOf(20);
    give(1);
    give(2);
    expect(ran).toEqual([1]);
    await afterQueued();
    await afterQueued();
    // 2 started a new budget in the next turn's check phase and overran it.
    expect(ran).toEqual([1, 2]);
    give(3);
    give(4);
    expect(ran).toEqual([1, 2]);
    expect(budget.waitingUnits).toBe(2);
    await afterQueued();
    await afterQueued();
    await afterQueued();
    expect(ran).toEqual([1, 2, 3, 4]);
  });

  it('opens a fresh budget in the next turn when nothing waited: its first request starts at once', async () => {
    const { budget, give, ran } = budgetOf(20);
    give(1);
    // 1 overran the budget, but nothing waits: the budget closes in this turn's check phase...
    await afterQueued();
    // ...and a unit given in the next turn starts at once (held to that turn's check phase, every
    // such request paid a setImmediate: the bench's anonymous list read 0.77-0.90 of the build
    // before in one pass).
    give(2);
    expect(ran).toEqual([1, 2]);
    expect(budget.waitingUnits).toBe(0);
  });
});

describe('TurnBudget.resume', () => {
  it('lets a started unit go on at once while the turn has budget and nothing waits', () => {
    const { budget, give } = budgetOf(1);
    give(1);
    expect(budget.resume()).toBeUndefined();
  });

  it('past the budget, sends a going-on to a later turn, behind the units that already wait', async () => {
    const { budget, give, ran } = budgetOf(10);
    for (const id of [1, 2, 3]) give(id);
    // 1 and 2 started (0 and 10 ms into the turn); 3 waits; an answer arriving now must wait too.
    const order: string[] = [];
    const later = budget.resume();
    expect(later).toBeInstanceOf(Promise);
    void later?.then(() => order.push(`resumed after ${ran.join(',')}`));
    expect(budget.waitingUnits).toBe(2);
    await afterQueued();
    await afterQueued();
    expect(order).toEqual(['resumed after 1,2,3']);
    expect(budget.waitingUnits).toBe(0);
  });

  it('waits behind what waits even when the new turn has budget: the order is kept', async () => {
    const { budget, give } = budgetOf(20);
    give(1);
    give(2);
    expect(budget.waitingUnits).toBe(1);
    const later = budget.resume();
    expect(later).toBeInstanceOf(Promise);
    await afterQueued();
    await afterQueued();
    await later;
    expect(budget.waitingUnits).toBe(0);
  });
});

describe('mayWaitForTurn', () => {
  it('lets an anonymous read wait for a later turn', () => {
    expect(mayWaitForTurn('GET', '/special-events', false)).toBe(true);
    expect(mayWaitForTurn('HEAD', '/special-events/a0000000-0000-4000-8000-000000000000', false)).toBe(true);
    expect(mayWaitForTurn('GET', '/special-events?limit=5', false)).toBe(true);
  });

  it('never a read with credentials: the staff and the apps go first, and their p99 stays', () => {
    expect(mayWaitForTurn('GET', '/special-events', true)).toBe(false);
    expect(mayWaitForTurn('HEAD', '/special-events', true)).toBe(false);
  });

  it('never a write (a turn’s writes share one commit), with credentials or without', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect({ method, waits: mayWaitForTurn(method, '/special-events', false) }).toEqual({ method, waits: false });
      expect({ method, waits: mayWaitForTurn(method, '/special-events', true) }).toEqual({ method, waits: false });
    }
  });

  it('never a health check, so that a probe beside a flood measures the loop', () => {
    expect(mayWaitForTurn('GET', '/health/live', false)).toBe(false);
    expect(mayWaitForTurn('GET', '/health/ready', false)).toBe(false);
  });

  it('never a calendar feed: its token is its credential, and its build is sliced already', () => {
    expect(mayWaitForTurn('GET', '/calendar/abc.ics?startDate=2027-01-01', false)).toBe(false);
  });
});
