import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/test-app.js';

/**
 * The README's walk-through with curl, run as it is written: its first `sh` block, with only its
 * `BASE=` line set to the test app's address, in one bash process (so that BASE, EVENT and ETAG
 * carry from command to command), on a fresh database. The credentials are the
 * README's own: the app's admin is created with that password.
 *
 * How the block reads: a comment after a blank line is prose; the comment lines right after a
 * command are what it prints. Each of those must be a whole line of the command's output, in
 * that order (curl -i prints more headers than the README shows), where `…` stands for anything.
 */

const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
const run = promisify(execFile);

interface Step {
  readonly commands: string[];
  readonly expected: string[];
}

/** The first `sh` block after the walk-through's heading. */
function walkthroughBlock(): string {
  const section = README.slice(README.indexOf('## A walk-through with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README: no sh block after "## A walk-through with curl"');
  return block;
}

function parseSteps(block: string): Step[] {
  const steps: Step[] = [];
  let current: Step = { commands: [], expected: [] };
  const finish = (): void => {
    if (current.commands.length > 0) steps.push(current);
    current = { commands: [], expected: [] };
  };
  for (const line of block.split('\n')) {
    if (line.trim() === '') finish();
    else if (line.startsWith('#')) {
      if (current.commands.length > 0) current.expected.push(line.replace(/^# ?/, ''));
    } else {
      if (current.expected.length > 0) finish();
      current.commands.push(line);
    }
  }
  finish();
  return steps;
}

/** A README output line as a whole-line pattern: `…` is anything, the rest literal. */
function linePattern(expected: string): RegExp {
  const literal = expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('.*')}$`, 'u');
}

/** The lines of `expected` not found in `output` in that order (empty: all found). */
function missingLines(expected: readonly string[], output: readonly string[]): string[] {
  const missing: string[] = [];
  let at = 0;
  for (const line of expected) {
    const pattern = linePattern(line);
    const found = output.findIndex((candidate, index) => index >= at && pattern.test(candidate));
    if (found < 0) missing.push(line);
    else at = found + 1;
  }
  return missing;
}

/** The one line that names the address; every command reaches the service through `$BASE`. */
const BASE_LINE = /^BASE=http:\/\/localhost:3000$/m;

const t = useTestApp(() => {
  const password = /export CREDS='admin:([^']+)'/.exec(walkthroughBlock())?.[1];
  if (password === undefined) throw new Error("README: the walk-through sets no CREDS='admin:…'");
  return { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: password };
});

describe('the README walk-through with curl', () => {
  it('sits in a README a reader finishes: at most 15 KB', () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(15 * 1024);
  });

  it('parses into commands, each followed by the output it shows', () => {
    const steps = parseSteps(walkthroughBlock());
    expect(steps.length).toBeGreaterThanOrEqual(8);
    // Paste-able on any port: the address is set once, and nothing is left to fill in by hand.
    const block = walkthroughBlock();
    expect(block).toMatch(BASE_LINE);
    expect(block.replace(BASE_LINE, '')).not.toMatch(/localhost|127\.0\.0\.1|<[a-z]+>/);
    const shown = steps.map((step) => step.commands.join('\n'));
    for (const operation of [
      '-X PATCH',
      '-X DELETE',
      '/special-events?startDate=',
      '%header{location}',
      '/museum-hours/weekly',
      '/museum-hours?limit=',
      '"$BASE/tickets"',
      '$TICKET/qr',
      '"$BASE/orders"',
      '/cancel',
    ]) {
      expect(shown.some((command) => command.includes(operation))).toBe(true);
    }
  });

  it('every command prints what the README says it prints', async () => {
    const steps = parseSteps(walkthroughBlock().replace(BASE_LINE, `BASE=${t.baseUrl}`));
    // One bash process: a marker line after each step splits the output per step.
    const script = [
      'set -euo pipefail',
      ...steps.flatMap((step, index) => [...step.commands, `printf '\\n@@step %s\\n' ${index}`]),
    ].join('\n');
    const { stdout } = await run('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    const outputs: string[][] = [];
    let lines: string[] = [];
    for (const line of stdout.replaceAll('\r', '').split('\n')) {
      if (/^@@step \d+$/.test(line)) {
        outputs.push(lines);
        lines = [];
      } else if (line !== '') lines.push(line);
    }
    expect(outputs).toHaveLength(steps.length);
    const failures = steps.flatMap((step, index) => {
      const missing = missingLines(step.expected, outputs[index] ?? []);
      return missing.length === 0
        ? []
        : [
            `${step.commands[0]}\n  README shows, not printed:\n    ${missing.join('\n    ')}\n  printed:\n    ${(outputs[index] ?? []).join('\n    ')}`,
          ];
    });
    expect(failures.join('\n\n')).toBe('');
  });
});
