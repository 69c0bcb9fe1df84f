import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Compiles the service into `.test-build/<name>` (not `dist/`, which `npm start` rebuilds and
 * deletes, possibly while another test file runs it) and returns the entry point.
 */
export function buildService(name: string): string {
  const outDir = join(ROOT, '.test-build', name);
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return join(outDir, 'main.js');
}

export interface RunningService {
  readonly baseUrl: string;
  readonly process: ChildProcess;
  /** Everything the process wrote so far. */
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a compiled service on an OS-chosen port and waits until it listens. */
export async function startService(entry: string, env: Record<string, string>, timeoutMs = 30_000): Promise<RunningService> {
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not listen within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const poll = setInterval(() => {
      const match = /Listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
