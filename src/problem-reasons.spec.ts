import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemCatalog, type ProblemReasonRow } from './common/problem/problem-catalog.js';
import { VALIDATION_PROBLEM_TYPE } from './common/problem/problem.js';

/**
 * docs/api.md lists every reason a feature refuses a request for, generated from the features'
 * `<feature>.problems.ts`, so a reason is written once. Run with UPDATE_PROBLEM_REASONS=1 to
 * rewrite the list after changing a catalog.
 */
const DOC = join(import.meta.dirname, '..', 'docs', 'api.md');
const BEGIN = '<!-- problem-reasons:begin (generated from src/*/*.problems.ts: see src/problem-reasons.spec.ts) -->';
const END = '<!-- problem-reasons:end -->';

async function catalogs(): Promise<ProblemCatalog<object>[]> {
  const found: ProblemCatalog<object>[] = [];
  for (const feature of readdirSync(import.meta.dirname, { withFileTypes: true })) {
    if (!feature.isDirectory()) continue;
    for (const file of readdirSync(join(import.meta.dirname, feature.name))) {
      if (!file.endsWith('.problems.ts')) continue;
      const module = (await import(`./${feature.name}/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
      for (const value of Object.values(module)) if (value instanceof ProblemCatalog) found.push(value);
    }
  }
  return found.sort((a, b) => a.feature.localeCompare(b.feature));
}

function table(rows: readonly ProblemReasonRow[]): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  return [
    '| Module | Reason | Status | Problem type | When |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) => `| ${row.feature} | \`${row.reason}\` | \`${row.status}\` | \`${row.type}\` | ${cell(row.when)} |`,
    ),
  ].join('\n');
}

describe('docs/api.md and the features’ problem catalogs', () => {
  it('lists every reason of every catalog, as the catalogs say it', async () => {
    const found = await catalogs();
    expect(found.map((catalog) => catalog.feature)).toEqual(
      expect.arrayContaining(['calendar', 'museum-hours', 'special-events', 'tickets', 'webhooks']),
    );
    const generated = `${BEGIN}\n${table(found.flatMap((catalog) => catalog.rows()))}\n${END}`;
    const doc = readFileSync(DOC, 'utf8');
    const begin = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(begin, `docs/api.md has no line ${BEGIN}`).toBeGreaterThanOrEqual(0);
    const current = doc.slice(begin, end + END.length);
    if (process.env.UPDATE_PROBLEM_REASONS === '1' && current !== generated) {
      writeFileSync(DOC, doc.replace(current, generated));
      return;
    }
    expect(current, 'run with UPDATE_PROBLEM_REASONS=1 to regenerate').toBe(generated);
  });

  it('names no problem type that no catalog defines', async () => {
    const known = new Set([VALIDATION_PROBLEM_TYPE, ...(await catalogs()).flatMap((c) => c.rows().map((r) => r.type))]);
    const named = new Set(readFileSync(DOC, 'utf8').match(/urn:museum:problem:[a-z-]+/g) ?? []);
    expect([...named].filter((type) => !known.has(type))).toEqual([]);
  });
});
