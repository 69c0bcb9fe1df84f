import { droppingStatements, keepingValues, refusalsOf, type TableDiff } from './migration-plan.js';

const varchar = (length: number, nullable = true, defaultValue?: string) => ({
  type: 'varchar',
  length: String(length),
  nullable,
  default: defaultValue,
});
const widened: TableDiff = {
  table: 't',
  dropped: [],
  added: [],
  changed: [{ column: 'c', from: varchar(500), to: varchar(600) }],
};

describe('keepingValues', () => {
  it("turns MySQL's DROP COLUMN + ADD of a changed column into one MODIFY, both ways, and checks a narrowing", () => {
    const queries = keepingValues(
      'mysql',
      {
        up: ['ALTER TABLE `t` DROP COLUMN `c`', 'ALTER TABLE `t` ADD `c` varchar(600) NULL'],
        down: ['ALTER TABLE `t` DROP COLUMN `c`', 'ALTER TABLE `t` ADD `c` varchar(500) NULL'],
      },
      [widened],
    );
    expect(queries.up).toEqual(['ALTER TABLE `t` MODIFY `c` varchar(600) NULL']);
    expect(queries.down).toEqual([
      {
        refuseIf: 'SELECT COUNT(*) AS n FROM `t` WHERE CHAR_LENGTH(`c`) > 500',
        because: expect.stringContaining('t.c narrows to 500 characters') as unknown,
      },
      'ALTER TABLE `t` MODIFY `c` varchar(500) NULL',
    ]);
    expect(droppingStatements('mysql', queries.up)).toEqual([]);
  });

  it('fills NULLs with the new default before a column becomes NOT NULL, on SQLite too', () => {
    const diff: TableDiff = {
      table: 't',
      dropped: [],
      added: [],
      changed: [{ column: 'c', from: varchar(500), to: varchar(500, false, "'none'") }],
    };
    expect(refusalsOf([diff])).toEqual([]);
    expect(keepingValues('sqlite', { up: ['REBUILD'], down: ['REBUILD BACK'] }, [diff]).up).toEqual([
      `UPDATE "t" SET "c" = 'none' WHERE "c" IS NULL`,
      'REBUILD',
    ]);
  });
});

describe('refusalsOf', () => {
  it('accepts widening; refuses a drop, a possible rename, a narrower integer and NOT NULL without a default', () => {
    const int = (type: string) => ({ type, length: '', nullable: false });
    expect(refusalsOf([widened])).toEqual([]);
    const refusals = refusalsOf([
      { table: 'a', dropped: ['old'], added: [], changed: [] },
      { table: 'b', dropped: ['old'], added: ['new'], changed: [] },
      { table: 'c', dropped: [], added: [], changed: [{ column: 'n', from: int('bigint'), to: int('int') }] },
      { table: 'd', dropped: [], added: [], changed: [{ column: 'n', from: int('int'), to: int('bigint') }] },
      { table: 'e', dropped: [], added: [], changed: [{ column: 's', from: varchar(10), to: varchar(10, false) }] },
    ]);
    expect(refusals).toEqual([
      expect.stringMatching(/^a\.old would be dropped with its values/),
      expect.stringMatching(/^b\.old is gone and b\.new is new: a rename cannot be told from a drop and an add/),
      expect.stringMatching(/^c\.n narrows from bigint to int/),
      expect.stringMatching(/^e\.s becomes NOT NULL without a default/),
    ]);
  });

  it('and the last line of defence names a MySQL statement that still drops a column', () => {
    expect(droppingStatements('mysql', ['ALTER TABLE `t` DROP COLUMN `c`', 'SELECT 1'])).toEqual([
      'ALTER TABLE `t` DROP COLUMN `c`',
    ]);
  });
});
