import type { MigrationInterface } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { inOneHistory, type MigrationClass } from './migration-history.js';

/** A migration class named as TypeORM wants it: the name ending in its timestamp. */
function migration(name: string): MigrationClass {
  const named = {
    [name]: class implements MigrationInterface {
      async up(): Promise<void> {}
      async down(): Promise<void> {}
    },
  };
  return named[name];
}

describe('inOneHistory', () => {
  it('orders the features’ migrations by timestamp, whatever the order of the features', () => {
    const [a, b, c] = ['First1700000000000', 'Second1700000001000', 'Third1700000002000'];
    const history = inOneHistory([
      { sqlite: [migration(b)], mysql: [migration(b)] },
      { sqlite: [migration(a), migration(c)], mysql: [migration(a), migration(c)] },
    ]);
    expect(history.sqlite.map((m) => m.name)).toEqual([a, b, c]);
    expect(history.mysql.map((m) => m.name)).toEqual([a, b, c]);
  });

  it('refuses two migrations with one timestamp, a name without one, and drivers that differ', () => {
    const one = { sqlite: [migration('A1700000000000')], mysql: [migration('A1700000000000')] };
    const same = { sqlite: [migration('B1700000000000')], mysql: [migration('B1700000000000')] };
    expect(() => inOneHistory([one, same])).toThrow(/same timestamp/);
    expect(() => inOneHistory([{ sqlite: [migration('NoTimestamp')], mysql: [] }])).toThrow(/13-digit timestamp/);
    expect(() => inOneHistory([{ sqlite: one.sqlite, mysql: [] }])).toThrow(/drivers' migrations differ/);
  });
});
