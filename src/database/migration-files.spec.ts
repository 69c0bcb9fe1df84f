import {
  kebabCase,
  migrationList,
  migrationListName,
  migrationSource,
  registerMigration,
  withMysqlCharset,
} from './migration-files.js';

describe('generated migrations', () => {
  it('give every MySQL table utf8mb4 with binary collation, and leave other statements alone', () => {
    expect(withMysqlCharset('CREATE TABLE `t` (`a` int NOT NULL) ENGINE=InnoDB')).toBe(
      'CREATE TABLE `t` (`a` int NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
    );
    expect(withMysqlCharset('ALTER TABLE `t` ADD `b` int NOT NULL')).toBe('ALTER TABLE `t` ADD `b` int NOT NULL');
  });

  it('name the class after the migration and its timestamp, with backticks kept literal', () => {
    const source = migrationSource('AddTickets', 1795000000000, {
      up: ['CREATE TABLE `x` (`a` int)'],
      down: ['DROP TABLE `x`'],
    });
    expect(source).toContain('export class AddTickets1795000000000 implements MigrationInterface');
    expect(source).toContain("name = 'AddTickets1795000000000';");
    expect(source).toContain('await queryRunner.query(`CREATE TABLE \\`x\\` (\\`a\\` int)`);');
    expect(source).toContain('await queryRunner.query(`DROP TABLE \\`x\\``);');
    expect(kebabCase('AddTicketHolders2')).toBe('add-ticket-holders2');
  });

  it('register the migration for both drivers, after the others', () => {
    const options = [
      "import type { X } from 'typeorm';",
      "import { Initial1 as MysqlInitial } from './migrations/mysql/1-initial.js';",
      '',
      'export const MIGRATIONS = {',
      '  sqlite: [SqliteInitial],',
      '  mysql: [MysqlInitial],',
      '} as const;',
    ].join('\n');
    const registered = registerMigration(options, 'AddTickets', 2);
    expect(registered).toContain(
      "from './migrations/mysql/1-initial.js';\n" +
        "import { AddTickets2 as MysqlAddTickets } from './migrations/mysql/2-add-tickets.js';\n" +
        "import { AddTickets2 as SqliteAddTickets } from './migrations/sqlite/2-add-tickets.js';\n",
    );
    expect(registered).toContain(
      '  sqlite: [SqliteInitial, SqliteAddTickets],\n  mysql: [MysqlInitial, MysqlAddTickets],',
    );
  });

  it('register after a trailing comma without leaving a hole in the list', () => {
    const options = [
      "import { Initial1 as SqliteInitial } from './migrations/sqlite/1-initial.js';",
      'export const MIGRATIONS = {',
      '  sqlite: [',
      '    SqliteInitial,',
      '  ],',
      '  mysql: [',
      '    MysqlInitial,',
      '  ],',
      '} as const;',
    ].join('\n');
    const registered = registerMigration(options, 'AddTickets', 2);
    expect(registered).toContain('  sqlite: [\n    SqliteInitial,\n    SqliteAddTickets,\n  ],');
    expect(registered).toContain('  mysql: [\n    MysqlInitial,\n    MysqlAddTickets,\n  ],');
    expect(registered).not.toMatch(/,\s*,/);
  });

  it("register a feature's first migration in a new list, named after the feature", () => {
    expect(migrationListName('museum-hours')).toBe('MUSEUM_HOURS_MIGRATIONS');
    const registered = registerMigration(migrationList('exhibits'), 'AddExhibits', 3);
    expect(registered).toContain(
      "import { AddExhibits3 as SqliteAddExhibits } from './migrations/sqlite/3-add-exhibits.js';",
    );
    expect(registered).toContain('export const EXHIBITS_MIGRATIONS: DriverMigrations = {');
    expect(registered).toContain('  sqlite: [SqliteAddExhibits],\n  mysql: [MysqlAddExhibits],');
  });
});
