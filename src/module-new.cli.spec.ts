import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..');

/** Runs `npm run module:new -- --dry-run ...args` (which writes nothing), and what it answered. */
async function moduleNew(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['src/module-new.cli.ts', '--dry-run', ...args],
      { cwd: ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/**
 * The names module:new refuses, before it writes anything: each with exit 2 and one line saying
 * why. (What it writes is proven by CI, which generates a module in a scratch copy and runs the
 * checks there: .ci/run.)
 */
describe('npm run module:new refuses a name it cannot use', () => {
  it.each([
    ['Memberships', /^module:new: "Memberships" is not a module name: kebab-case, .*\.\n$/],
    ['gift_cards', /^module:new: "gift_cards" is not a module name/],
    ['tickets', /^module:new: src\/tickets\/ exists: "tickets" is taken\.\n$/],
    ['helpers', /^module:new: test\/helpers\/ exists: "helpers" is taken\.\n$/],
    [
      'check-ins',
      /^module:new: "check-ins" is taken: a controller already answers \/check-ins in src\/tickets\/tickets\.controller\.ts\.\n$/,
    ],
  ])(
    '%s: exit 2, one line',
    async (name, line) => {
      const { code, stdout, stderr } = await moduleNew(name);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toMatch(line);
    },
    30_000,
  );

  it('without a name: exit 2 with the usage', async () => {
    const { code, stderr } = await moduleNew();
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Usage: npm run module:new -- \[--dry-run\] <name> \[<singular>\]/);
  }, 30_000);

  it('takes a free name: exit 0, listing the files it would write', async () => {
    const { code, stdout } = await moduleNew('gift-cards');
    expect(code).toBe(0);
    expect(stdout).toContain('  src/gift-cards/gift-card.entity.ts\n');
    expect(stdout).toContain('  test/gift-cards/role-rows.ts\n');
  }, 30_000);
});
