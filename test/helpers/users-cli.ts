import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { buildService } from './built-service.js';
import { childEnv, ROOT } from './service-process.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly databaseUrl: string;
  /** Written to standard input, which is then closed (not a terminal: the CLI reads its first line). */
  readonly stdin?: string;
  readonly env?: Record<string, string>;
  readonly timeoutMs?: number;
  /**
   * True: `npm run -s users -- <args>` exactly as the README shows it (npm, then tsx compiling
   * src/ at every start: about 2 s of CPU per call). By default the same CLI compiled in the
   * run's shared build (test/helpers/built-service.ts), run by the Node that runs the tests.
   */
  readonly viaNpm?: boolean;
}

/** The users CLI with `args` on the database `databaseUrl` names; `stdin` is the password for add and passwd. */
export function runUsersCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const [command, commandArgs] = options.viaNpm
    ? ['npm', ['run', '-s', 'users', '--', ...args]]
    : [process.execPath, [join(dirname(buildService()), 'users.cli.js'), ...args]];
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: options.databaseUrl, ...options.env }),
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined); // EPIPE when the CLI exits without reading
  child.stdin.end(options.stdin ?? '');
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`users ${args.join(' ')}: no exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
