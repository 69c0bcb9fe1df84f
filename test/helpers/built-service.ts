import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, ProcessRun, ROOT } from './service-process.js';

/**
 * Compiles the service into `.test-build/<name>` (not `dist/`, which `npm start` rebuilds and
 * deletes, possibly while another test file runs it) and returns the entry point. The folder is
 * emptied first, so no file of a source since removed survives. Each caller uses its own name.
 */
export function buildService(name: string): string {
  const outDir = join(ROOT, '.test-build', name);
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return join(outDir, 'main.js');
}

export interface RunningService {
  readonly baseUrl: string;
  readonly run: ProcessRun;
  /** Sends the signal (if still running) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a compiled service with node on an OS-chosen port and waits until it listens. */
export async function startService(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<RunningService> {
  const run = new ProcessRun(process.execPath, [entry], {
    cwd: ROOT,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
  });
  const port = await run.waitForPort(timeoutMs);
  let stopping: Promise<number | null> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    run,
    stop: (signal = 'SIGTERM') => {
      stopping ??= (async () => {
        run.signal(signal);
        return (await run.waitForExit(30_000)).code;
      })();
      return stopping;
    },
  };
}
