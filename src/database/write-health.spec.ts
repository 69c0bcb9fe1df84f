import { QueryFailedError } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WRITE_FAILURE_UNREADY_MS, WriteHealth } from './write-health.js';

const diskFull = () =>
  new QueryFailedError('INSERT ...', [], Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
const duplicate = () =>
  new QueryFailedError('INSERT ...', [], Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }));

describe('WriteHealth', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('is healthy before any write', () => {
    expect(new WriteHealth().failingRecently()).toBe(false);
  });

  it('a write that fails for want of a database makes it fail, until a write succeeds', async () => {
    const health = new WriteHealth();
    const error = diskFull();
    await expect(health.track(Promise.reject(error))).rejects.toBe(error);
    expect(health.failingRecently()).toBe(true);
    await expect(health.track(Promise.resolve(false))).resolves.toBe(false);
    expect(health.failingRecently()).toBe(false);
  });

  it(`a failure counts for ${WRITE_FAILURE_UNREADY_MS} ms, then no longer`, async () => {
    const health = new WriteHealth();
    await expect(health.track(Promise.reject(diskFull()))).rejects.toThrow('database or disk is full');
    vi.advanceTimersByTime(WRITE_FAILURE_UNREADY_MS - 1);
    expect(health.failingRecently()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(health.failingRecently()).toBe(false);
  });

  it('a write refused for its content, or failing for another reason, says nothing about the database', async () => {
    const health = new WriteHealth();
    await expect(health.track(Promise.reject(duplicate()))).rejects.toThrow('Duplicate entry');
    await expect(health.track(Promise.reject(new TypeError('bug')))).rejects.toThrow('bug');
    expect(health.failingRecently()).toBe(false);
  });
});
