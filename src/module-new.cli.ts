import './refuse-unsupported-node.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const USAGE = `Usage: npm run module:new -- [--dry-run] <name> [<singular>]

Writes a complete module named <name> (kebab-case, plural: memberships, gift-cards) from
templates/module/: src/<name>/ (entity, migrations for SQLite and MySQL, repository, service,
controller, DTOs, refusals, problems, OpenAPI) and test/<name>/ (its e2e spec and its rows in the
shared tables), adds its line to src/features.ts, and regenerates docs/api.md's list of problem
reasons and the typed client (client/schema.d.ts). The singular (membership) is <name> without
its plural ending unless given. With --dry-run it checks the name and lists the files, writing
nothing. docs/extending.md says what each file is. Exit codes: 0 written, 1 failed, 2 usage error.`;

const ROOT = join(import.meta.dirname, '..');
const TEMPLATES = join(ROOT, 'templates', 'module');
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The spellings of a module's name that the templates use, `{{key}}` for each key. */
type Names = Readonly<Record<string, string>>;

const pascal = (kebab: string): string => kebab.replace(/(^|-)([a-z0-9])/g, (_, _dash, c: string) => c.toUpperCase());
const camel = (kebab: string): string => kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A plural's singular, for the common English endings; anything else stays as it is. */
function singularOf(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(plural)) return plural.slice(0, -2);
  if (/[^su]s$/.test(plural)) return plural.slice(0, -1);
  return plural;
}

function namesOf(plural: string, singular: string, timestamp: number): Names {
  const words = singular.replace(/-/g, ' ');
  const article = /^[aeiou]/.test(words) ? 'an' : 'a';
  return {
    plural,
    Plural: pascal(plural),
    pluralCamel: camel(plural),
    PLURAL: plural.replace(/-/g, '_').toUpperCase(),
    table: plural.replace(/-/g, '_'),
    Title: `${plural[0].toUpperCase()}${plural.slice(1).replace(/-/g, ' ')}`,
    singular,
    Singular: pascal(singular),
    singularCamel: camel(singular),
    singular_snake: singular.replace(/-/g, '_'),
    singularWords: words,
    a: article,
    A: article === 'an' ? 'An' : 'A',
    timestamp: String(timestamp),
  };
}

/** Each template and the file it becomes. */
function filesOf(n: Names): [template: string, target: string][] {
  const src = `src/${n.plural}`;
  const test = `test/${n.plural}`;
  return [
    ['src/entity.ts.tpl', `${src}/${n.singular}.entity.ts`],
    ['src/migrations/sqlite.ts.tpl', `${src}/migrations/sqlite/${n.timestamp}-${n.plural}.ts`],
    ['src/migrations/mysql.ts.tpl', `${src}/migrations/mysql/${n.timestamp}-${n.plural}.ts`],
    ['src/migrations-list.ts.tpl', `${src}/${n.plural}.migrations.ts`],
    ['src/repository.ts.tpl', `${src}/${n.plural}.repository.ts`],
    ['src/refusals.ts.tpl', `${src}/${n.plural}.refusals.ts`],
    ['src/service.ts.tpl', `${src}/${n.plural}.service.ts`],
    ['src/problems.ts.tpl', `${src}/${n.plural}.problems.ts`],
    ['src/dto.ts.tpl', `${src}/dto/${n.singular}.dto.ts`],
    ['src/openapi.ts.tpl', `${src}/${n.plural}.openapi.ts`],
    ['src/controller.ts.tpl', `${src}/${n.plural}.controller.ts`],
    ['src/module.ts.tpl', `${src}/${n.plural}.module.ts`],
    ['test/api.ts.tpl', `${test}/api.ts`],
    ['test/e2e-spec.ts.tpl', `${test}/${n.plural}.e2e-spec.ts`],
    ['test/role-rows.ts.tpl', `${test}/role-rows.ts`],
    ['test/contract-cases.ts.tpl', `${test}/contract-cases.ts`],
    ['test/openapi-paths.ts.tpl', `${test}/openapi-paths.ts`],
    ['test/no-store-reads.ts.tpl', `${test}/no-store-reads.ts`],
  ];
}

function render(template: string, n: Names): string {
  return template.replace(/\{\{([A-Za-z_]+)\}\}/g, (token, key: string) => {
    const value = n[key];
    if (value === undefined) throw new Error(`unknown template key ${token}`);
    return value;
  });
}

/** Every .ts file under `dir` (relative to the root), as [path, text]. */
function sources(dir: string): [string, string][] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [`${dir}/${file}`, readFileSync(join(ROOT, dir, file), 'utf8')]);
}

/**
 * A timestamp after every migration's, src/ and test/ alike, whatever the machine's clock says:
 * the new migration then runs last in the one history, and no two migrations share a timestamp.
 */
function nextTimestamp(files: readonly string[]): number {
  const taken = files.map((file) => /\/migrations\/(?:sqlite|mysql)\/(\d{13})-/.exec(file)?.[1]).filter(Boolean);
  return Math.max(Date.now(), ...taken.map((stamp) => Number(stamp) + 1));
}

/** Why `plural` (and `singular`) cannot name a new module, or undefined when they can. */
function refusalOf(plural: string, singular: string, code: [string, string][]): string | undefined {
  if (!KEBAB.test(plural) || plural.length > 40) {
    return `"${plural}" is not a module name: kebab-case, a letter first, at most 40 characters (e.g. gift-cards)`;
  }
  if (!KEBAB.test(singular)) return `"${singular}" is not a singular in kebab-case (e.g. gift-card)`;
  for (const dir of ['src', 'test']) {
    if (existsSync(join(ROOT, dir, plural))) return `${dir}/${plural}/ exists: "${plural}" is taken`;
  }
  const n = namesOf(plural, singular, 0);
  const taken: [RegExp, string][] = [
    [new RegExp(`@Controller\\('${plural}(/|')`), `a controller already answers /${plural}`],
    [new RegExp(`CREATE TABLE [\`"\\\\]*${n.table}[\`"\\\\]* `), `the table ${n.table} exists`],
    [
      new RegExp(`class (${n.Plural}Module|${n.Singular}|${n.Plural}Service|${n.Plural}Repository)\\b`),
      'a class of that name exists',
    ],
    [new RegExp(`operationId: '(get|store|delete)${n.Singular}'`), `an operation of ${n.Singular} exists`],
  ];
  for (const [pattern, what] of taken) {
    const hit = code.find(([, text]) => pattern.test(text));
    if (hit !== undefined) return `"${plural}" is taken: ${what} in ${hit[0]}`;
  }
  return undefined;
}

/** src/features.ts with the module's imports and its line at the end of FEATURES. */
function registered(features: string, n: Names): string {
  const imports =
    `import { ${n.PLURAL}_MIGRATIONS } from './${n.plural}/${n.plural}.migrations.js';\n` +
    `import { ${n.Plural}Module } from './${n.plural}/${n.plural}.module.js';\n`;
  const lastImport = features.lastIndexOf('\nimport ');
  const afterImports = features.indexOf('\n', features.indexOf(';', lastImport)) + 1;
  const end = features.indexOf('\n];', features.indexOf('export const FEATURES'));
  if (lastImport < 0 || end < 0) throw new Error('src/features.ts has no FEATURES list to add the module to');
  const line = `\n  { module: ${n.Plural}Module, migrations: ${n.PLURAL}_MIGRATIONS },`;
  return features.slice(0, afterImports) + imports + features.slice(afterImports, end) + line + features.slice(end);
}

/** Runs npm or a tool of node_modules/.bin at the root; its output is shown only when it fails. */
function run(tool: string, args: readonly string[], env: Record<string, string> = {}): void {
  try {
    execFileSync(tool === 'npm' ? 'npm' : join(ROOT, 'node_modules', '.bin', tool), args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`);
    throw new Error(
      `module:new: ${tool} ${args.join(' ')} failed; the files above are written, fix and run it by hand`,
    );
  }
}

function main(argv: readonly string[]): number {
  const dryRun = argv.includes('--dry-run');
  const [plural, given, ...extra] = argv.filter((arg) => arg !== '--dry-run');
  if (plural === undefined || extra.length > 0 || [plural, given].some((arg) => arg?.startsWith('-'))) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const singular = given ?? singularOf(plural);
  const code = [...sources('src'), ...sources('test')];
  const refusal = refusalOf(plural, singular, code);
  if (refusal !== undefined) {
    process.stderr.write(`module:new: ${refusal}.\n`);
    return 2;
  }
  const n = namesOf(plural, singular, nextTimestamp(code.map(([file]) => file)));
  if (dryRun) {
    const files = [...filesOf(n).map(([, target]) => target), 'src/features.ts', 'docs/api.md', 'client/schema.d.ts'];
    process.stdout.write(`Would write or change:\n${files.map((file) => `  ${file}\n`).join('')}`);
    return 0;
  }
  const written: string[] = [];
  for (const [template, target] of filesOf(n)) {
    mkdirSync(dirname(join(ROOT, target)), { recursive: true });
    writeFileSync(join(ROOT, target), render(readFileSync(join(TEMPLATES, template), 'utf8'), n), { flag: 'wx' });
    written.push(target);
  }
  const features = join(ROOT, 'src', 'features.ts');
  writeFileSync(features, registered(readFileSync(features, 'utf8'), n));
  // The templates are formatted for their own lines; a longer name moves where Prettier wraps.
  run('prettier', ['--write', '--log-level', 'warn', ...written, 'src/features.ts']);
  // docs/api.md lists every catalog's reasons: the new module's join it (src/problem-reasons.spec.ts).
  run('vitest', ['run', '--project', 'unit', 'src/problem-reasons.spec.ts'], { UPDATE_PROBLEM_REASONS: '1' });
  // client/schema.d.ts is the typed client of the served document, which now has the module's
  // operations (test/typed-client.e2e-spec.ts): built and exported as `npm run client:generate` does.
  run('npm', ['run', '--silent', 'client:generate']);
  process.stdout.write(
    `Wrote the ${plural} module:\n${written.map((file) => `  ${file}\n`).join('')}` +
      `Registered it in src/features.ts, listed its problem reasons in docs/api.md and regenerated\n` +
      `client/schema.d.ts, the typed client.\n` +
      `Run its tests: npx vitest run --project e2e-sqlite test/${plural}/ (docs/extending.md lists the rest).\n`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
