import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_MIB } from '../src/v8-flags.js';
import { startService, useBuiltService } from './helpers/built-service.js';
import { childEnv, ProcessRun, ROOT } from './helpers/service-process.js';

/**
 * The built service started as `node main.js`, as production and `npm start` start it, runs with
 * the V8 semi-space bound (src/v8-flags.ts): main.ts replaces its own process with node given the
 * flag. Read from /proc, so the pid checked is the one that was spawned, listens and gets the
 * signals: a relaunch that left a parent behind, or lost the signal or the exit code, fails here.
 */

const FLAG = `--max-semi-space-size=${SEMI_SPACE_MIB}`;
const ENV = { ADMIN_USERNAME: 'v8flags', ADMIN_PASSWORD: 'v8flags-password-1234' };

/** The command line of a running process, as the kernel has it. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** The node flags of a command line: what stands before the script. */
function nodeFlags(argv: readonly string[], entry: string): string[] {
  return argv.slice(1, argv.indexOf(entry));
}

describe.runIf(process.platform === 'linux')('the V8 flags of the built service', () => {
  const built = useBuiltService('sqlite');

  it('runs `node main.js` with the semi-space bound in the same process, which SIGTERM stops with exit code 0', async () => {
    const service = await startService(built.entry, { DATABASE_URL: built.database.url, ...ENV }, 60_000);
    expect(nodeFlags(commandLine(service.run.pid), built.entry)).toEqual([FLAG]);
    const live = await fetch(`${service.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(service.run.logs().some((line) => line.context === 'Shutdown' && line.msg === 'Closed')).toBe(true);
  });

  it('keeps a value given on the command line or in NODE_OPTIONS instead of adding its own', async () => {
    for (const [args, nodeOptions] of [
      [['--max-semi-space-size=2', built.entry], undefined],
      [[built.entry], '--max-semi-space-size=2'],
    ] as const) {
      const run = new ProcessRun(process.execPath, args, {
        cwd: ROOT,
        env: childEnv({
          HOST: '127.0.0.1',
          PORT: '0',
          LOG_LEVEL: 'info',
          DATABASE_URL: built.database.url,
          ...ENV,
          ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
        }),
      });
      await run.waitForPort(60_000);
      expect(nodeFlags(commandLine(run.pid), built.entry)).toEqual(args.slice(0, -1));
      run.signal('SIGTERM');
      expect((await run.waitForExit(30_000)).code).toBe(0);
    }
  });

  it('exits with the service’s own code and message when its configuration is refused', async () => {
    const run = new ProcessRun(process.execPath, [built.entry], {
      cwd: ROOT,
      env: childEnv({ PORT: 'not-a-port', DATABASE_URL: built.database.url, ...ENV }),
    });
    const status = await run.waitForExit(60_000);
    expect(status).toEqual({ code: 1, signal: null });
    expect(run.stderr.match(/PORT/g)).toHaveLength(1);
  });
});
