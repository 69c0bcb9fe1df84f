import { Logger } from '@nestjs/common';
import { FailureLimiter } from './failure-limiter.js';
import { GuessGate } from './guess-gate.js';

const A = '192.0.2.1';

/** A lookup that answers when told to, so that a test decides the order. */
function deferred(): { promise: Promise<boolean>; answer: (known: boolean) => void } {
  let answer = (_known: boolean): void => undefined;
  const promise = new Promise<boolean>((resolve) => (answer = resolve));
  return { promise, answer };
}

function gate(limit = 3): { gate: GuessGate; limiter: FailureLimiter } {
  const limiter = new FailureLimiter({ limit, addressLimit: 100, windowMs: 60_000 });
  return { gate: new GuessGate(limiter), limiter };
}

describe('GuessGate', () => {
  it('never counts known answers: 20 at once all run, at most `limit` in flight', async () => {
    const { gate: target, limiter } = gate(3);
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        target.check(
          A,
          'door',
          async () => {
            running++;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, 1));
            running--;
            return true;
          },
          (known) => !known,
        ),
      ),
    );
    expect(results.every((result) => result.kind === 'checked')).toBe(true);
    expect(most).toBe(3);
    expect(limiter.attemptsLeft(A, 'door')).toBe(3);
  });

  it('of many unknown answers at once, exactly `limit` are looked up; the rest are limited', async () => {
    const { gate: target, limiter } = gate(3);
    let lookups = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        target.check(
          A,
          'door',
          async () => {
            lookups++;
            await new Promise((resolve) => setTimeout(resolve, 1));
            return false;
          },
          (known) => !known,
        ),
      ),
    );
    // Three counted and answered as wrong; the seven past the limit looked up uncounted, limited.
    expect(lookups).toBe(10);
    expect(results.filter((result) => result.kind === 'checked')).toHaveLength(3);
    expect(results.filter((result) => result.kind === 'limited')).toHaveLength(7);
    expect(limiter.retryAfterSeconds(A, 'door')).toBeGreaterThan(0);
  });

  it('past the limit, a right answer is still checked and a wrong one limited, and neither counts', async () => {
    const { gate: target, limiter } = gate(3);
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const guess = (known: boolean) =>
      target.check(
        A,
        'door',
        () => Promise.resolve(known),
        (value) => !value,
      );
    for (let i = 0; i < 3; i++) expect(await guess(false)).toEqual({ kind: 'checked', value: false });
    // The failure that brought the limit on was logged at warn level, once.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ client: A, name: 'door', retryAfterSeconds: 60 });
    expect(await guess(true)).toEqual({ kind: 'checked', value: true });
    expect(await guess(false)).toEqual({ kind: 'limited', retryAfterSeconds: 60 });
    expect(await guess(true)).toEqual({ kind: 'checked', value: true });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(limiter.attemptsLeft(A, 'door')).toBe(0);
    warn.mockRestore();
  });

  it('a waiting check starts when a known answer frees a turn, in arrival order', async () => {
    const { gate: target } = gate(1);
    const first = deferred();
    const order: string[] = [];
    const a = target.check(
      A,
      'door',
      () => first.promise,
      (known) => !known,
    );
    const b = target.check(
      A,
      'door',
      async () => (order.push('b'), true),
      (known) => !known,
    );
    const c = target.check(
      A,
      'door',
      async () => (order.push('c'), true),
      (known) => !known,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    first.answer(true);
    await Promise.all([a, b, c]);
    expect(order).toEqual(['b', 'c']);
  });

  it('a rejected lookup counts nothing and frees its turn', async () => {
    const { gate: target, limiter } = gate(1);
    await expect(
      target.check(
        A,
        'door',
        () => Promise.reject(new Error('database down')),
        () => true,
      ),
    ).rejects.toThrow('database down');
    expect(limiter.attemptsLeft(A, 'door')).toBe(1);
    expect(
      await target.check(
        A,
        'door',
        async () => true,
        () => false,
      ),
    ).toEqual({ kind: 'checked', value: true });
  });
});
