/**
 * The text of generated migrations: one class per driver under the same name and timestamp, so
 * that both databases list the same migrations (database-options.spec.ts checks it).
 */

import type { GeneratedQueries, MigrationStep } from './migration-plan.js';

export type { GeneratedQueries } from './migration-plan.js';

/** TypeORM ends a MySQL CREATE TABLE with ENGINE=InnoDB; every table also gets utf8mb4, binary. */
export function withMysqlCharset(query: string): string {
  if (!/^\s*CREATE TABLE/i.test(query)) return query;
  return `${query.replace(/\s*ENGINE=InnoDB\s*$/i, '')} ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`;
}

/** `AddTickets` → `add-tickets`. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** A template literal holding `text` as it is. */
function literal(text: string): string {
  return `\`${text.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${')}\``;
}

function statements(steps: readonly MigrationStep[]): string {
  return steps
    .map((step) =>
      typeof step === 'string'
        ? `    await queryRunner.query(${literal(step)});`
        : `    await refuseIf(queryRunner, ${literal(step.refuseIf)}, ${literal(step.because)});`,
    )
    .join('\n');
}

const REFUSE_IF = `
/** Stops the migration before it changes anything when \`count\` (a SELECT COUNT(*) AS n) finds rows. */
async function refuseIf(queryRunner: QueryRunner, count: string, because: string): Promise<void> {
  const [{ n }] = (await queryRunner.query(count)) as { n: number | string }[];
  if (Number(n) > 0) throw new Error(\`\${String(n)} row(s) stop this migration: \${because}\`);
}
`;

/** The source of one migration class (to be formatted by Prettier before it is written). */
export function migrationSource(name: string, timestamp: number, queries: GeneratedQueries): string {
  const className = `${name}${timestamp}`;
  const guarded = [...queries.up, ...queries.down].some((step) => typeof step !== 'string');
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${statements(queries.up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${statements(queries.down)}
  }
}
${guarded ? REFUSE_IF : ''}`;
}

/** `museum-hours` → `MUSEUM_HOURS_MIGRATIONS`: the name of a feature's list of migrations. */
export function migrationListName(feature: string): string {
  return `${feature.toUpperCase().replaceAll('-', '_')}_MIGRATIONS`;
}

/** A feature's list of migrations before its first one (src/<feature>/<feature>.migrations.ts). */
export function migrationList(feature: string): string {
  return `import type { DriverMigrations } from '../database/migration-history.js';

/** ${feature}'s tables: one class per driver under one name and timestamp, oldest first. */
export const ${migrationListName(feature)}: DriverMigrations = {
  sqlite: [],
  mysql: [],
};
`;
}

/**
 * A feature's list of migrations (src/<feature>/<feature>.migrations.ts) with the new migration
 * imported for both drivers and appended to both lists, in order.
 */
export function registerMigration(optionsSource: string, name: string, timestamp: number): string {
  const className = `${name}${timestamp}`;
  const file = `${timestamp}-${kebabCase(name)}`;
  const imports =
    `import { ${className} as Mysql${name} } from './migrations/mysql/${file}.js';\n` +
    `import { ${className} as Sqlite${name} } from './migrations/sqlite/${file}.js';\n`;
  const lastImport = optionsSource.lastIndexOf('\nimport ');
  const afterLastImport = optionsSource.indexOf('\n', lastImport + 1) + 1;
  let source = optionsSource.slice(0, afterLastImport) + imports + optionsSource.slice(afterLastImport);
  for (const driver of ['sqlite', 'mysql'] as const) {
    const prefix = driver === 'sqlite' ? 'Sqlite' : 'Mysql';
    const list = new RegExp(`(\\n  ${driver}: \\[)([^\\]]*)(\\])`);
    if (!list.test(source)) throw new Error(`the feature's migrations list has no ${driver} list`);
    // The list as Prettier writes it, one item a line with a trailing comma, or on one line.
    source = source.replace(list, (_match, open: string, items: string, close: string) => {
      const entry = `${prefix}${name}`;
      if (items.trim() === '') return `${open}${entry}${close}`;
      if (!items.includes('\n')) return `${open}${items.replace(/[\s,]*$/, '')}, ${entry}${close}`;
      return `${open}${items.replace(/[\s,]*$/, '')},\n    ${entry},\n  ${close}`;
    });
  }
  return source;
}
