import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from './time-ordered-ids.js';

describe('uuidv7', () => {
  it('makes valid version 7 UUIDs carrying the millisecond they were made in', () => {
    const at = Date.UTC(2026, 2, 14, 10, 30);
    const id = uuidv7(at);
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('ascends within one millisecond and across a refill of the random pool', () => {
    const at = Date.UTC(2026, 2, 14, 10, 31);
    // 1,000 ids: several refills of the pool (256 ids each), all in one millisecond.
    const ids = Array.from({ length: 1000 }, () => uuidv7(at));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('ascends when the clock steps back, as uuid v7 does', () => {
    const first = uuidv7(Date.UTC(2026, 2, 14, 10, 32));
    const second = uuidv7(Date.UTC(2026, 2, 14, 10, 31));
    expect(second > first).toBe(true);
  });

  it('draws different random bits for each id', () => {
    const at = Date.UTC(2026, 2, 14, 10, 33);
    const tails = new Set(Array.from({ length: 600 }, () => uuidv7(at).slice(-12)));
    expect(tails.size).toBe(600);
  });
});
