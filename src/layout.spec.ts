import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = import.meta.dirname;

/** Where a file of src/ belongs: its top folder, or the root (entry points and composition). */
function placeOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length === 0 ? '' : first;
}

/** Every relative import of every non-test TypeScript file under `root`, resolved to a path. */
function importsUnder(root: string): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.spec.ts')) continue;
    const file = join(root, entry);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    imports.set(
      file,
      importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts')),
    );
  }
  return imports;
}

interface LayoutProblem {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

/**
 * The folders below the features, and what each may import besides itself. common/ (HTTP,
 * problems, logging, validation) stands alone; domain/ (calendar dates, the museum's clock) is the
 * kernel features share; config/ reads the environment; database/ is the one way to the database;
 * capacity/ takes the places of any pool (an event's seats, a day's admissions) through it.
 * None of them imports a feature: features import them.
 */
const FOUNDATIONS: Readonly<Record<string, readonly string[]>> = {
  common: [],
  domain: [],
  config: ['common', 'domain'],
  database: ['common', 'config'],
  capacity: ['database', 'domain'],
};

/**
 * The rules folders follow: nothing in a folder imports the root of src/ (main.ts, app.setup.ts,
 * app.module.ts and the other entry points), a foundation imports only what FOUNDATIONS allows
 * it, and the folders' imports form no cycle (two folders importing each other included).
 */
function layoutProblems(imports: ReadonlyMap<string, readonly string[]>): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of imports) {
    const from = placeOf(file);
    for (const target of targets) {
      const to = placeOf(target);
      if (from !== '' && to === '') {
        problems.push({
          rule: 'a folder imports the root of src/',
          from: relative(SRC, file),
          to: relative(SRC, target),
        });
      }
      const allowed = FOUNDATIONS[from];
      if (allowed !== undefined && to !== '' && to !== from && !allowed.includes(to)) {
        problems.push({ rule: `${from}/ imports ${to}/`, from: relative(SRC, file), to: relative(SRC, target) });
      }
      if (from !== '' && to !== '' && from !== to) {
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    }
  }
  const reaches = (start: string, goal: string, seen = new Set<string>()): boolean => {
    for (const next of edges.get(start) ?? []) {
      if (next === goal) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, goal, seen)) return true;
      }
    }
    return false;
  };
  for (const [from, targets] of edges) {
    for (const to of targets) {
      if (reaches(to, from)) problems.push({ rule: 'folders depend on each other in a cycle', from, to });
    }
  }
  return problems;
}

/**
 * The files of a feature that another feature's service may import: those of the providers its
 * module exports (`exports: [...]` of `@Module()` in the feature's `*.module.ts`), and its
 * `*.refusals.ts` (the reasons its services refuse) and `*.types.ts` (what its services take and
 * return). Everything else in the folder (repositories, entities, DTOs, helpers) is its own.
 */
function featureDoors(sources: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const doors = new Map<string, Set<string>>();
  const doorsOf = (feature: string): Set<string> => {
    let found = doors.get(feature);
    if (found === undefined) doors.set(feature, (found = new Set()));
    return found;
  };
  for (const [file, text] of sources) {
    const feature = placeOf(file);
    if (feature === '' || FOUNDATIONS[feature] !== undefined) continue;
    if (/\.(refusals|types)\.ts$/.test(file)) doorsOf(feature).add(file);
    if (!file.endsWith('.module.ts')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    const importedFrom = new Map<string, string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
      const target = resolve(dirname(file), statement.moduleSpecifier.text).replace(/\.js$/, '.ts');
      for (const element of bindings.elements) importedFrom.set(element.name.text, target);
    }
    const visit = (node: ts.Node): void => {
      if (
        ts.isPropertyAssignment(node) &&
        ts.isIdentifier(node.name) &&
        node.name.text === 'exports' &&
        ts.isArrayLiteralExpression(node.initializer)
      ) {
        for (const element of node.initializer.elements) {
          const target = ts.isIdentifier(element) ? importedFrom.get(element.text) : undefined;
          if (target !== undefined && placeOf(target) === feature) doorsOf(feature).add(target);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return doors;
}

/**
 * What a service (`*.service.ts`) must not import, so that it speaks the domain: HTTP plumbing
 * (`common/http/`), any request or response shape (a `dto/` folder, its feature's own included),
 * and another feature's internals: into another feature, only its doors (featureDoors).
 * Foundations (FOUNDATIONS) are open to every service.
 */
function serviceImportProblems(
  imports: ReadonlyMap<string, readonly string[]>,
  doors: ReadonlyMap<string, ReadonlySet<string>>,
): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  for (const [file, targets] of imports) {
    if (!file.endsWith('.service.ts')) continue;
    const from = placeOf(file);
    for (const target of targets) {
      const path = relative(SRC, target);
      const to = placeOf(target);
      let rule: string | undefined;
      if (path.startsWith('common/http/')) rule = 'a service imports common/http/';
      else if (path.split('/').includes('dto')) rule = 'a service imports a dto/ file';
      else if (to !== from && to !== '' && FOUNDATIONS[to] === undefined && !doors.get(to)?.has(target)) {
        rule = `a service imports what ${to}/ does not export`;
      }
      if (rule !== undefined) problems.push({ rule, from: relative(SRC, file), to: path });
    }
  }
  return problems;
}

/** The drivers, and TypeORM's handles on the database (and Nest's decorators injecting them): src/database/ only. */
const DRIVER_MODULES = /^(better-sqlite3|mysql2)(\/|$)/;
const HANDLES: Readonly<Record<string, ReadonlySet<string>>> = {
  typeorm: new Set(['DataSource', 'EntityManager', 'Repository', 'QueryRunner']),
  '@nestjs/typeorm': new Set(['InjectDataSource', 'InjectEntityManager', 'InjectRepository']),
};

/**
 * Imports that reach the database around the facade (Sql): a driver, TypeORM's DataSource,
 * EntityManager, Repository or QueryRunner, or the decorators that inject them, in a non-test file
 * outside src/database/. A migration takes the QueryRunner TypeORM hands it (`migrations/`
 * folders); registering entities (`TypeOrmModule.forFeature`) reaches no database.
 */
function databaseBypasses(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of sources) {
    const path = relative(SRC, file);
    if (path.startsWith('database/') || path.endsWith('.spec.ts')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const from = statement.moduleSpecifier;
      if (from === undefined || !ts.isStringLiteral(from)) continue;
      if (DRIVER_MODULES.test(from.text)) found.push(`${path} imports ${from.text}`);
      const handles = HANDLES[from.text];
      if (handles === undefined) continue;
      const bindings = ts.isImportDeclaration(statement)
        ? statement.importClause?.namedBindings
        : statement.exportClause;
      if (bindings === undefined || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) continue;
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).text;
        if (handles.has(name) && !(name === 'QueryRunner' && path.includes('/migrations/'))) {
          found.push(`${path} imports ${name} from ${from.text}`);
        }
      }
    }
  }
  return found;
}

/** Every non-test TypeScript file under src/ and its text. */
function sourcesOfSrc(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('.ts') && !entry.endsWith('.spec.ts'))
      sources.set(join(SRC, entry), readFileSync(join(SRC, entry), 'utf8'));
  }
  return sources;
}

describe('one way to the database', () => {
  it('nothing outside src/database/ imports a driver or a TypeORM handle on the database', () => {
    expect(databaseBypasses(sourcesOfSrc())).toEqual([]);
  });

  it('finds each kind of bypass, and lets migrations take their QueryRunner', () => {
    const at = (path: string): string => join(SRC, path);
    const found = databaseBypasses(
      new Map([
        [at('auth/hits.ts'), "import Database from 'better-sqlite3';\nimport type { Pool } from 'mysql2/promise';"],
        [at('auth/auth.module.ts'), "import { DataSource } from 'typeorm';"],
        [at('tickets/x.ts'), "import { type EntityManager, Repository as R } from 'typeorm';"],
        [
          at('tickets/y.ts'),
          "import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';\nexport { QueryRunner } from 'typeorm';",
        ],
        [at('tickets/migrations/mysql/1-x.ts'), "import type { MigrationInterface, QueryRunner } from 'typeorm';"],
        [at('tickets/ticket.entity.ts'), "import { Column, Entity } from 'typeorm';"],
        [at('database/sql.ts'), "import type { DataSource } from 'typeorm';\nimport Database from 'better-sqlite3';"],
        [at('auth/hits.spec.ts'), "import Database from 'better-sqlite3';"],
      ]),
    );
    expect(found).toEqual([
      'auth/hits.ts imports better-sqlite3',
      'auth/hits.ts imports mysql2/promise',
      'auth/auth.module.ts imports DataSource from typeorm',
      'tickets/x.ts imports EntityManager from typeorm',
      'tickets/x.ts imports Repository from typeorm',
      'tickets/y.ts imports InjectRepository from @nestjs/typeorm',
      'tickets/y.ts imports QueryRunner from typeorm',
    ]);
  });
});

describe('the folders of src/', () => {
  it('depend one way: no cycle, no import of the root, foundations free of features', () => {
    expect(layoutProblems(importsUnder(SRC))).toEqual([]);
  });

  it('keep the entry points at the root, imported by nothing', () => {
    const entries = [
      'main.ts',
      'test-service.ts',
      'data-source.ts',
      'users.cli.ts',
      'migrations.cli.ts',
      'backup.cli.ts',
      'export-openapi.ts',
    ];
    const imported = new Set([...importsUnder(SRC).values()].flat().map((file) => relative(SRC, file)));
    expect(entries.filter((entry) => imported.has(entry))).toEqual([]);
    expect(readdirSync(SRC)).toEqual(expect.arrayContaining(entries));
  });
});

describe('services', () => {
  it('speak the domain: no common/http/, no dto/, and of another feature only what it exports', () => {
    expect(serviceImportProblems(importsUnder(SRC), featureDoors(sourcesOfSrc()))).toEqual([]);
  });

  it("find the doors of a feature in its module's exports, its refusals and its types", () => {
    const at = (path: string): string => join(SRC, path);
    const doors = featureDoors(
      new Map([
        [
          at('shop/shop.module.ts'),
          "import { ShopService } from './shop.service.js';\nimport { Till } from './till.js';\n" +
            "import { Sql } from '../database/sql.js';\n" +
            '@Module({ providers: [ShopService, Till, Stock], exports: [ShopService, Till, Sql] })\nexport class ShopModule {}',
        ],
        [at('shop/stock.ts'), 'export class Stock {}'],
        [at('shop/shop.refusals.ts'), ''],
        [at('shop/shop.types.ts'), ''],
        [at('shop/dto/sale.dto.ts'), ''],
        [at('database/x.types.ts'), ''],
      ]),
    );
    expect(
      Object.fromEntries(
        [...doors].map(([feature, files]) => [feature, [...files].map((f) => relative(SRC, f)).sort()]),
      ),
    ).toEqual({ shop: ['shop/shop.refusals.ts', 'shop/shop.service.ts', 'shop/shop.types.ts', 'shop/till.ts'] });
  });

  it("finds a service importing common/http/, a dto/ file or another feature's internals", () => {
    const at = (path: string): string => join(SRC, path);
    const doors = new Map([['shop', new Set([at('shop/shop.service.ts'), at('shop/shop.types.ts')])]]);
    const problems = serviceImportProblems(
      new Map([
        [
          at('tickets/tickets.service.ts'),
          [
            at('common/http/entity-tags.ts'),
            at('tickets/dto/buy.dto.ts'),
            at('shop/dto/sale.dto.ts'),
            at('shop/shop.repository.ts'),
            at('shop/shop.service.ts'),
            at('shop/shop.types.ts'),
            at('tickets/tickets.repository.ts'),
            at('common/problem/problem.ts'),
            at('domain/refusal.ts'),
            at('database/sql.ts'),
          ],
        ],
        // Controllers and other files are the HTTP side: free to import these.
        [at('tickets/tickets.controller.ts'), [at('common/http/entity-tags.ts'), at('tickets/dto/buy.dto.ts')]],
        [at('tickets/tickets.responses.ts'), [at('shop/shop.repository.ts')]],
      ]),
      doors,
    );
    expect(problems).toEqual([
      { rule: 'a service imports common/http/', from: 'tickets/tickets.service.ts', to: 'common/http/entity-tags.ts' },
      { rule: 'a service imports a dto/ file', from: 'tickets/tickets.service.ts', to: 'tickets/dto/buy.dto.ts' },
      { rule: 'a service imports a dto/ file', from: 'tickets/tickets.service.ts', to: 'shop/dto/sale.dto.ts' },
      {
        rule: 'a service imports what shop/ does not export',
        from: 'tickets/tickets.service.ts',
        to: 'shop/shop.repository.ts',
      },
    ]);
  });
});

describe('file names', () => {
  it('end in .dto.ts for request and response shapes (dto/ folders), .metrics.ts for metrics', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(files.filter((file) => file.includes('/dto/') && !file.endsWith('.dto.ts'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('metrics.ts') && !file.endsWith('.metrics.ts'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.dto.ts')).length).toBeGreaterThan(0);
  });
});

describe('layoutProblems', () => {
  const at = (path: string): string => join(SRC, path);

  it('finds two folders that import each other, and a longer cycle', () => {
    const problems = layoutProblems(
      new Map([
        [at('auth/a.ts'), [at('metrics/m.ts')]],
        [at('metrics/m.ts'), [at('auth/b.ts')]],
        [at('x/x.ts'), [at('y/y.ts')]],
        [at('y/y.ts'), [at('z/z.ts')]],
        [at('z/z.ts'), [at('x/x.ts')]],
      ]),
    );
    expect(problems.map(({ from, to }) => `${from}->${to}`).sort()).toEqual([
      'auth->metrics',
      'metrics->auth',
      'x->y',
      'y->z',
      'z->x',
    ]);
  });

  it('finds a folder importing the root and a foundation importing more than it may, and accepts one-way imports', () => {
    const problems = layoutProblems(
      new Map([
        [at('openapi/export.ts'), [at('app.setup.ts')]],
        [at('common/log.ts'), [at('config/app-config.ts')]],
        [at('database/store.ts'), [at('tickets/ticket.ts'), at('common/problem.ts')]],
        [at('domain/dates.ts'), [at('database/sql.ts')]],
        [at('auth/guard.ts'), [at('common/problem.ts'), at('config/app-config.ts')]],
        [at('main.ts'), [at('auth/guard.ts')]],
      ]),
    );
    expect(problems).toEqual([
      { rule: 'a folder imports the root of src/', from: 'openapi/export.ts', to: 'app.setup.ts' },
      { rule: 'common/ imports config/', from: 'common/log.ts', to: 'config/app-config.ts' },
      { rule: 'database/ imports tickets/', from: 'database/store.ts', to: 'tickets/ticket.ts' },
      { rule: 'domain/ imports database/', from: 'domain/dates.ts', to: 'database/sql.ts' },
    ]);
  });
});
