import { spawn } from 'node:child_process';
import { childEnv, ROOT } from './service-process.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `npm run -s users -- <args>` in the project, as the README shows it, on the database
 * `databaseUrl` names; `stdin` (the password, for add and passwd) is written to its standard
 * input, which is then closed (not a terminal: the CLI reads its first line).
 */
export function runUsersCli(
  args: readonly string[],
  options: { databaseUrl: string; stdin?: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliResult> {
  const child = spawn('npm', ['run', '-s', 'users', '--', ...args], {
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
