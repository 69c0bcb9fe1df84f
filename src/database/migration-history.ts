import type { MigrationInterface } from 'typeorm';

/** A migration class, as TypeORM takes it. */
export type MigrationClass = new () => MigrationInterface;

/**
 * One feature's migrations, per driver: each driver's list holds the same migrations by name (one
 * class per driver under the same name and timestamp), oldest first.
 */
export interface DriverMigrations {
  readonly sqlite: readonly MigrationClass[];
  readonly mysql: readonly MigrationClass[];
}

export const NO_MIGRATIONS: DriverMigrations = { sqlite: [], mysql: [] };

/** TypeORM's rule: a migration's timestamp is the number its class name ends with. */
export function timestampOf(migration: MigrationClass): number {
  const digits = /(\d{13})$/.exec(migration.name)?.[1];
  if (digits === undefined) throw new Error(`${migration.name}: a migration's name ends with its 13-digit timestamp`);
  return Number(digits);
}

/**
 * The features' migrations as one history per driver, ordered by timestamp (the order TypeORM
 * runs them in, and the order an existing database has recorded). Two migrations with one
 * timestamp would make that order depend on the feature list, so they are refused, as is a
 * driver's list that does not hold the same names as the other's.
 */
export function inOneHistory(features: readonly DriverMigrations[]): DriverMigrations {
  const ordered = (driver: keyof DriverMigrations): MigrationClass[] => {
    const all = features.flatMap((feature) => feature[driver]);
    const byTimestamp = new Map<number, string>();
    for (const migration of all) {
      const other = byTimestamp.get(timestampOf(migration));
      if (other !== undefined) throw new Error(`${other} and ${migration.name} have the same timestamp`);
      byTimestamp.set(timestampOf(migration), migration.name);
    }
    return [...all].sort((a, b) => timestampOf(a) - timestampOf(b));
  };
  const history = { sqlite: ordered('sqlite'), mysql: ordered('mysql') };
  const names = (list: readonly MigrationClass[]): string => list.map((migration) => migration.name).join(', ');
  if (names(history.sqlite) !== names(history.mysql)) {
    throw new Error(
      `the drivers' migrations differ: sqlite has ${names(history.sqlite)}; mysql has ${names(history.mysql)}`,
    );
  }
  return history;
}
