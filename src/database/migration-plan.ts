/**
 * What makes a generated migration keep every value: the entities compared with the tables the
 * committed migrations build, column by column, and TypeORM's generated statements corrected where
 * they would lose data, or refused where no in-place change is known to be safe.
 *
 * TypeORM writes a MySQL column whose type or length changes as DROP COLUMN then ADD (its values
 * gone), and cannot tell a renamed column from a dropped one and a new one; its SQLite table
 * rebuild copies the rows, but not those of a dropped column, and fails on a NULL copied into a
 * column that became NOT NULL.
 */

export type Driver = 'sqlite' | 'mysql';

/** A check run before the statements: when its `SELECT COUNT(*) AS n` finds rows, the migration stops. */
export interface MigrationGuard {
  readonly refuseIf: string;
  readonly because: string;
}

/** A statement of a generated migration, or a check before them. */
export type MigrationStep = string | MigrationGuard;

export interface GeneratedQueries {
  readonly up: readonly MigrationStep[];
  readonly down: readonly MigrationStep[];
}

/** A column as the database has it, or as its entity wants it, in the driver's own terms. */
export interface ColumnShape {
  readonly type: string;
  /** The declared length (`varchar(500)`: `500`), or empty. */
  readonly length: string;
  readonly nullable: boolean;
  /** The default as SQL (`'none'`, `0`), if any. */
  readonly default?: string;
}

export interface ColumnChange {
  readonly column: string;
  readonly from: ColumnShape;
  readonly to: ColumnShape;
}

/** One existing table compared with its entity. */
export interface TableDiff {
  readonly table: string;
  /** Columns the table has and the entity does not. */
  readonly dropped: readonly string[];
  /** Columns the entity has and the table does not. */
  readonly added: readonly string[];
  readonly changed: readonly ColumnChange[];
}

/** What the generator does with the data of one changed column. */
type Treatment =
  | { readonly kind: 'keep' }
  | { readonly kind: 'narrow'; readonly to: number }
  | { readonly kind: 'refuse'; readonly reason: string };

const INTEGER_RANK: Readonly<Record<string, number>> = {
  tinyint: 1,
  smallint: 2,
  mediumint: 3,
  int: 4,
  integer: 4,
  bigint: 5,
};
const TEXT_RANK: Readonly<Record<string, number>> = { tinytext: 1, text: 2, mediumtext: 3, longtext: 4 };
const SIZED_TEXT = new Set(['varchar', 'nvarchar', 'char', 'nchar', 'character varying']);

function typeChange(table: string, change: ColumnChange): Treatment {
  const from = change.from.type.toLowerCase();
  const to = change.to.type.toLowerCase();
  const name = `${table}.${change.column}`;
  if (from in INTEGER_RANK && to in INTEGER_RANK) {
    if (INTEGER_RANK[to] >= INTEGER_RANK[from]) return { kind: 'keep' };
    return {
      kind: 'refuse',
      reason:
        `${name} narrows from ${from} to ${to}, which would cut values that do not fit: write this ` +
        `migration by hand, checking first that no value is out of ${to}'s range.`,
    };
  }
  if (SIZED_TEXT.has(from) && (SIZED_TEXT.has(to) || to in TEXT_RANK)) {
    if (to in TEXT_RANK) return { kind: 'keep' };
    const [before, after] = [Number(change.from.length), Number(change.to.length)];
    if (from === to && after < before) return { kind: 'narrow', to: after };
    if (from === to || (from.startsWith('n') === to.startsWith('n') && after >= before)) return { kind: 'keep' };
  }
  if (from in TEXT_RANK && to in TEXT_RANK && TEXT_RANK[to] >= TEXT_RANK[from]) return { kind: 'keep' };
  if (from === to) return { kind: 'keep' };
  return {
    kind: 'refuse',
    reason:
      `${name} changes type from ${from} to ${to}, which the generator cannot tell is safe: write ` +
      `this migration by hand (add a column of the new type, copy the values with a conversion, ` +
      `check them, then drop the old column).`,
  };
}

function treat(table: string, change: ColumnChange): Treatment {
  const sameType = change.from.type.toLowerCase() === change.to.type.toLowerCase();
  const sameLength = change.from.length === change.to.length || change.from.type.toLowerCase() in INTEGER_RANK;
  return sameType && sameLength ? { kind: 'keep' } : typeChange(table, change);
}

/** Why the diff cannot be migrated without a person deciding; empty when it can. */
export function refusalsOf(diffs: readonly TableDiff[]): string[] {
  const refusals: string[] = [];
  for (const diff of diffs) {
    for (const column of diff.dropped) {
      refusals.push(
        diff.added.length > 0
          ? `${diff.table}.${column} is gone and ${diff.added.map((added) => `${diff.table}.${added}`).join(', ')} ` +
              `is new: a rename cannot be told from a drop and an add (which loses the values). Write a ` +
              `migration by hand for each driver: ALTER TABLE ${diff.table} RENAME COLUMN ${column} TO <new name>.`
          : `${diff.table}.${column} would be dropped with its values: write that migration by hand ` +
              `(ALTER TABLE ${diff.table} DROP COLUMN ${column}) once nothing needs them.`,
      );
    }
    for (const change of diff.changed) {
      const treatment = treat(diff.table, change);
      if (treatment.kind === 'refuse') refusals.push(treatment.reason);
      if (change.from.nullable && !change.to.nullable && change.to.default === undefined) {
        refusals.push(
          `${diff.table}.${change.column} becomes NOT NULL without a default, so its NULLs have no value ` +
            `to take: give it a default in the entity, or write the migration by hand (UPDATE the NULLs first).`,
        );
      }
    }
  }
  return refusals;
}

function quote(driver: Driver, name: string): string {
  return driver === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

/** The checks and fills that go before the statements changing `diffs` (old shape to new). */
function preparations(driver: Driver, diffs: readonly TableDiff[]): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const diff of diffs) {
    const table = quote(driver, diff.table);
    for (const change of diff.changed) {
      const column = quote(driver, change.column);
      const treatment = treat(diff.table, change);
      if (treatment.kind === 'narrow') {
        const length = driver === 'mysql' ? 'CHAR_LENGTH' : 'LENGTH';
        steps.push({
          refuseIf: `SELECT COUNT(*) AS n FROM ${table} WHERE ${length}(${column}) > ${treatment.to}`,
          because:
            `${diff.table}.${change.column} narrows to ${treatment.to} characters, and longer values would be cut: ` +
            `shorten them first (an UPDATE in a migration before this one), or keep the width.`,
        });
      }
      if (change.from.nullable && !change.to.nullable && change.to.default !== undefined) {
        steps.push(`UPDATE ${table} SET ${column} = ${change.to.default} WHERE ${column} IS NULL`);
      }
    }
  }
  return steps;
}

const MYSQL_DROP = /^ALTER TABLE `([^`]+)` DROP COLUMN `([^`]+)`$/;

/**
 * MySQL: each DROP COLUMN of a changed column that TypeORM follows with an ADD of the same column
 * becomes one MODIFY, which converts the values in place and keeps the column's position.
 */
function modifyInPlace(queries: readonly string[], diffs: readonly TableDiff[]): string[] {
  const changed = new Set(diffs.flatMap((diff) => diff.changed.map((change) => `${diff.table}.${change.column}`)));
  const result = [...queries];
  for (let index = 0; index < result.length; index++) {
    const drop = MYSQL_DROP.exec(result[index]);
    if (drop === null || !changed.has(`${drop[1]}.${drop[2]}`)) continue;
    const add = `ALTER TABLE \`${drop[1]}\` ADD \`${drop[2]}\` `;
    const at = result.findIndex((query, later) => later > index && query.startsWith(add));
    if (at === -1) continue;
    result[at] = `ALTER TABLE \`${drop[1]}\` MODIFY \`${drop[2]}\` ${result[at].slice(add.length)}`;
    result.splice(index, 1);
    index--;
  }
  return result;
}

/** The diff seen from the entities' side: what `down` undoes. */
function reversed(diffs: readonly TableDiff[]): TableDiff[] {
  return diffs.map((diff) => ({
    table: diff.table,
    dropped: diff.added,
    added: diff.dropped,
    changed: diff.changed.map((change) => ({ column: change.column, from: change.to, to: change.from })),
  }));
}

/**
 * TypeORM's statements for `driver`, made to keep every value of `diffs`' tables: MySQL columns
 * modified in place, NULLs given the new default before a column becomes NOT NULL, a narrowing
 * checked against the rows before anything runs. Call only when refusalsOf(diffs) is empty.
 */
export function keepingValues(
  driver: Driver,
  queries: GeneratedQueries,
  diffs: readonly TableDiff[],
): GeneratedQueries {
  const plain = (steps: readonly MigrationStep[]): string[] =>
    steps.map((step) => {
      if (typeof step !== 'string') throw new Error('TypeORM gave a guard: it gives only statements');
      return step;
    });
  const [up, down] = [plain(queries.up), plain(queries.down)];
  const back = reversed(diffs);
  return {
    up: [...preparations(driver, diffs), ...(driver === 'mysql' ? modifyInPlace(up, diffs) : up)],
    down: [...preparations(driver, back), ...(driver === 'mysql' ? modifyInPlace(down, back) : down)],
  };
}

/**
 * The last line of defence: a MySQL statement that still drops a column (or a table) in `up`
 * after keepingValues would lose its values.
 */
export function droppingStatements(driver: Driver, up: readonly MigrationStep[]): string[] {
  if (driver !== 'mysql') return [];
  return up.filter((step): step is string => typeof step === 'string' && /\bDROP (COLUMN|TABLE)\b/i.test(step));
}
