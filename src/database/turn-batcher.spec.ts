import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { requestDeadline, withinRequestDeadline } from './request-deadline.js';
import { type Pending, TurnBatcher } from './turn-batcher.js';

const DEADLINE_MS = 1000;
/** A statement's own bound (DB_QUERY_TIMEOUT_MS), far above the deadline. */
const STATEMENT_MS = 60_000;

/** A batcher whose chunks record the bound their statements would get, and commit every call. */
function recordingBatcher() {
  const bounds: number[] = [];
  const batcher = new TurnBatcher<number>((batch: readonly Pending<number>[]) => {
    bounds.push(withinRequestDeadline(STATEMENT_MS));
    for (const { resolve } of batch) resolve(true);
    return Promise.resolve();
  }, DEADLINE_MS);
  return { batcher, bounds };
}

describe('TurnBatcher: a chunk runs under its own deadline', () => {
  it("bounds a chunk's statements by its calls' deadline, though the request that started it was answered before it ran", async () => {
    const { batcher, bounds } = recordingBatcher();
    const response = new EventEmitter() as unknown as Response;
    let added: Promise<boolean> | undefined;
    requestDeadline(5 * DEADLINE_MS)({} as Request, response, (() => {
      added = batcher.add(1);
    }) as NextFunction);
    // That request is answered (its window closes) before the turn's chunk goes out: without a
    // window of its own, the chunk's statements had only their per-statement bound.
    response.emit('close');
    await expect(added).resolves.toBe(true);
    expect(bounds).toHaveLength(1);
    expect(bounds[0]).toBeGreaterThan(0);
    expect(bounds[0]).toBeLessThanOrEqual(DEADLINE_MS);
  });

  it('bounds a chunk started outside any request too (work a timer started)', async () => {
    const { batcher, bounds } = recordingBatcher();
    await expect(batcher.add(1)).resolves.toBe(true);
    expect(bounds[0]).toBeLessThanOrEqual(DEADLINE_MS);
    // Outside the chunk, nothing is bounded: the window was the chunk's alone.
    expect(withinRequestDeadline(STATEMENT_MS)).toBe(STATEMENT_MS);
  });

  it("leaves no bound behind: what the chunk started that runs after it ended (a connection's callbacks, a timer) is not cut", async () => {
    const later: number[] = [];
    const batcher = new TurnBatcher<number>((batch) => {
      // Runs on well past the chunk's deadline, in the context the chunk gave it.
      setTimeout(() => later.push(withinRequestDeadline(STATEMENT_MS)), 60);
      for (const { resolve } of batch) resolve(true);
      return Promise.resolve();
    }, 20);
    await expect(batcher.add(1)).resolves.toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A deadline that had passed would cut every statement there to 1 ms (503 after an outage).
    expect(later).toEqual([STATEMENT_MS]);
  });
});
