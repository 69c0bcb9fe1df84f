import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TEST = join(import.meta.dirname, '..');

/**
 * What every feature's test folder contributes to one shared table: the default export of
 * `test/<feature>/<name>.ts`, for each folder that has one, in the folders' alphabetical order. A
 * new feature's rows join the table by being in its folder; no shared file names them.
 */
export async function featureRows<T>(name: string): Promise<{ feature: string; rows: T }[]> {
  const found: { feature: string; rows: T }[] = [];
  const folders = readdirSync(TEST, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const feature of folders) {
    const file = join(TEST, feature, `${name}.ts`);
    if (!existsSync(file)) continue;
    const module = (await import(pathToFileURL(file).href)) as { default?: T };
    if (module.default === undefined) throw new Error(`${file} has no default export`);
    found.push({ feature, rows: module.default });
  }
  return found;
}
