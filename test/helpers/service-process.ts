import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The project root (the directory with package.json). */
export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Variables the service (or npm, or Node) reads: a child gets none of the test runner's, only
 * what the test passes, as if started from a clean shell.
 */
const SCRUBBED =
  /^(PORT|HOST|DATABASE_URL|ADMIN_.*|CORS_ORIGINS|LOG_LEVEL|TRUST_PROXY|DB_.*|AUTH_.*|MYSQL_.*|NODE_OPTIONS|NODE_ENV|VITEST.*|TEST_.*)$/;

export function childEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !SCRUBBED.test(name)) base[name] = value;
  }
  return { ...base, ...env };
}

/**
 * A copy of the project (package.json, configuration files, src/) in `into`, with node_modules
 * linked, not copied. `npm start` there compiles into the copy's own dist/: `nest start` deletes
 * and rewrites dist/ on every start, which must not happen under other engineers or test files
 * that use the working tree's dist/, and a snapshot of src/ is not disturbed by edits made while
 * the test runs.
 */
export function copyProject(into: string): string {
  for (const entry of readdirSync(ROOT)) {
    const from = join(ROOT, entry);
    if (statSync(from).isFile()) cpSync(from, join(into, entry));
  }
  cpSync(join(ROOT, 'src'), join(into, 'src'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'), 'dir');
  return into;
}

export interface ExitRecord {
  readonly pid: number;
  /** process.argv without the Node binary: the script and its arguments. */
  readonly argv: readonly string[];
  readonly code: number;
}

/**
 * `npm start` runs npm -> sh -> nest -> sh -> node dist/main: the test only sees npm's exit. A
 * preload (NODE_OPTIONS=--import) in every Node process of the tree appends each process's exit
 * code to a file, from the 'exit' event; a process killed by a signal writes nothing.
 */
export class ExitRecorder {
  readonly nodeOptions: string;
  private readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, 'exits.jsonl');
    const module = join(dir, 'exit-recorder.mjs');
    writeFileSync(
      module,
      [
        "import { appendFileSync } from 'node:fs';",
        "process.on('exit', (code) => {",
        `  appendFileSync(${JSON.stringify(this.file)}, JSON.stringify({ pid: process.pid, argv: process.argv.slice(1), code }) + '\\n');`,
        '});',
        '',
      ].join('\n'),
    );
    this.nodeOptions = `--import=${pathToFileURL(module).href}`;
  }

  records(): ExitRecord[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ExitRecord);
  }

  /** The exit records of the processes whose script path ends with `script` (e.g. 'dist/main'). */
  of(script: string): ExitRecord[] {
    return this.records().filter((record) => (record.argv[0] ?? '').replace(/\.js$/, '').endsWith(script));
  }
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export type LogLine = Record<string, unknown>;

/**
 * A command run in its own process group (so that the whole tree can be signalled, as a terminal
 * does on Ctrl-C), with its output captured.
 */
export class ProcessRun {
  stdout = '';
  stderr = '';
  /** The spawned process itself (npm, or node for a direct start). */
  readonly exited: Promise<ExitStatus>;
  /**
   * Standard output and error closed: every process that inherited them (the whole tree,
   * including a service that outlived its parents) has exited.
   */
  readonly closed: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly listeners = new Set<() => void>();
  private done = false;
  private exitStatus: ExitStatus | undefined;

  constructor(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: 'pipe' });
    this.child.stdin.end();
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString('utf8');
      this.notify();
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
      this.notify();
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        this.notify();
        resolve(this.exitStatus);
      }),
    );
    this.closed = new Promise((resolve) =>
      this.child.once('close', () => {
        this.done = true;
        this.notify();
        resolve();
      }),
    );
    RUNNING.add(this);
    void this.closed.then(() => RUNNING.delete(this));
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the process did not start');
    return this.child.pid;
  }

  /** Every line of standard output that is a JSON object (the service's log lines). */
  logs(): LogLine[] {
    return this.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** Sends the signal to the whole process group. */
  signalGroup(signal: NodeJS.Signals): void {
    process.kill(-this.pid, signal);
  }

  /** Sends the signal to the spawned process only. */
  signal(signal: NodeJS.Signals): void {
    process.kill(this.pid, signal);
  }

  /**
   * Resolves with the first non-undefined value of `probe`, evaluated on every output; rejects
   * (with everything the process wrote) when the output closes first or the time runs out.
   */
  waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const value = probe();
        if (value !== undefined) finish(() => resolve(value));
        else if (this.done) finish(() => reject(this.failure(`exited before ${what}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(this.failure(`no ${what} within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** The port of `Listening on http://127.0.0.1:<port>`, the line main.ts logs once listening. */
  waitForPort(timeoutMs: number): Promise<number> {
    return this.waitFor(
      'listening log line',
      () => {
        for (const line of this.logs()) {
          const match = /^Listening on http:\/\/127\.0\.0\.1:(\d+) /.exec(String(line.msg));
          if (line.context === 'Main' && match) return Number(match[1]);
        }
        return undefined;
      },
      timeoutMs,
    );
  }

  /** The exit status of the spawned process, or a rejection (with the output) after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<ExitStatus> {
    return this.waitFor('exit', () => this.exitStatus, timeoutMs);
  }

  /** Waits until every process of the tree has exited (output closed). */
  async waitForClose(timeoutMs: number): Promise<void> {
    await this.waitFor('end of output', () => (this.done ? true : undefined), timeoutMs);
  }

  failure(message: string): Error {
    return new Error(`${message}\n--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`);
  }

  /** SIGKILL to the group, for clean-up after a failed test. */
  kill(): void {
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  private notify(): void {
    // A listener may delete itself: deleting the current entry of a Set is safe while iterating.
    for (const listener of this.listeners) listener();
  }
}

const RUNNING = new Set<ProcessRun>();

/** Kills every process group started here that is still running (afterEach/afterAll). */
export function killLeftovers(): void {
  for (const run of RUNNING) run.kill();
}
