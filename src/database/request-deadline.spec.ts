import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { TurnBudget } from '../common/http/turn-budget.js';
import { afterDatabaseWait, requestDeadline, withinRequestDeadline } from './request-deadline.js';

/** Runs `middleware` as Express would, and `inside` in the context it hands to `next`. */
function within<T>(middleware: (request: Request, response: Response, next: NextFunction) => void, inside: () => T): T {
  let result: T | undefined;
  middleware(
    {} as Request,
    new EventEmitter() as unknown as Response,
    (() => {
      result = inside();
    }) as NextFunction,
  );
  return result as T;
}

describe('requestDeadline', () => {
  it("cuts a bound to what is left of the request's deadline, and leaves it outside a request", () => {
    expect(within(requestDeadline(200), () => withinRequestDeadline(10_000))).toBeLessThanOrEqual(200);
    expect(withinRequestDeadline(10_000)).toBe(10_000);
  });

  it('paces the going-on after a read only for a request given a turn budget', async () => {
    let now = 0;
    const turns = new TurnBudget(15, () => now);
    // The turn's budget opened at 0 and spent by 20 ms: a paced request goes on in a later turn.
    expect(turns.resume()).toBeUndefined();
    now = 20;
    const later = within(requestDeadline(200, turns), () => afterDatabaseWait());
    expect(later).toBeInstanceOf(Promise);
    expect(within(requestDeadline(200), () => afterDatabaseWait())).toBeUndefined();
    expect(afterDatabaseWait()).toBeUndefined();
    await later;
    expect(turns.waitingUnits).toBe(0);
  });
});
