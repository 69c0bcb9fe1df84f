/**
 * Starting, pinning, watching and stopping a server process (start.ts says which). Their output
 * goes to log files (one JSON line per request would otherwise flood the terminal and cost the
 * benchmark process CPU on the load generator's core).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { childEnv, ROOT } from '../../test/helpers/service-process.js';
import { onCleanup } from './cleanup.js';
import { errorText, httpCall, sleep } from './http.js';

/** The core of the servers; the benchmark process (autocannon) runs on core 0. */
const SERVER_CORE = 1;
const LOAD_CORE = 0;

export interface Pinning {
  readonly enabled: boolean;
  readonly note: string;
}

/** Pins this process (every thread) to LOAD_CORE; servers are then started on SERVER_CORE. */
export function pinSelf(): Pinning {
  const probe = spawnSync('taskset', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return { enabled: false, note: 'taskset not found: NOT pinned, servers and load generator share every core' };
  }
  const pin = spawnSync('taskset', ['-a', '-p', '-c', String(LOAD_CORE), String(process.pid)], { encoding: 'utf8' });
  if (pin.error || pin.status !== 0) {
    return { enabled: false, note: `taskset failed (${(pin.stderr || String(pin.error)).trim()}): NOT pinned` };
  }
  return {
    enabled: true,
    note: `load generator (this process, autocannon in-process) pinned to core ${LOAD_CORE}, every server process to core ${SERVER_CORE}`,
  };
}

/** `node <nodeArgs>`, under `taskset -c SERVER_CORE` when pinning: the command and its arguments. */
export function onServerCore(pinning: Pinning, nodeArgs: readonly string[]): [string, ...string[]] {
  const node: [string, ...string[]] = [process.execPath, ...nodeArgs];
  return pinning.enabled ? ['taskset', '-c', String(SERVER_CORE), ...node] : node;
}

export interface ServerSpec {
  readonly name: string;
  /** Node arguments: a script and its options. */
  readonly nodeArgs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  readonly pinning: Pinning;
}

const LISTENING = /Listening on http:\/\/127\.0\.0\.1:(\d+)/;
const STOP_GRACE_MS = 10_000;

/** A server process whose standard output and error go to its log file. */
export class ServerProcess {
  /** Where it listens, once `start` saw it say so. */
  port = 0;
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  private readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL when it has not exited after STOP_GRACE_MS. */
  readonly stop: () => Promise<void>;

  private constructor(
    readonly spec: ServerSpec,
    private readonly child: ChildProcess,
    readonly spawnedAt: number,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      });
    });
    this.stop = onCleanup(`stop ${spec.name}`, () => this.terminate());
  }

  /** Spawns the process (under `taskset -c SERVER_CORE` when pinning) without waiting. */
  static spawn(spec: ServerSpec): ServerProcess {
    const log = openSync(spec.logFile, 'a');
    try {
      const [command, ...args] = onServerCore(spec.pinning, spec.nodeArgs);
      const spawnedAt = performance.now();
      const child = spawn(command, args, {
        cwd: ROOT,
        env: childEnv({ ...spec.env }),
        stdio: ['ignore', log, log],
        detached: true,
      });
      return new ServerProcess(spec, child, spawnedAt);
    } finally {
      closeSync(log);
    }
  }

  /** Spawns the process and waits for its `Listening on http://127.0.0.1:<port>` line. */
  static async start(spec: ServerSpec, timeoutMs = 60_000): Promise<ServerProcess> {
    const server = ServerProcess.spawn(spec);
    try {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const match = LISTENING.exec(server.log());
        if (match) {
          server.port = Number(match[1]);
          return server;
        }
        server.checkRunning('before listening');
        if (performance.now() > deadline)
          throw new Error(`${spec.name} did not listen within ${timeoutMs} ms:\n${server.logTail()}`);
        await sleep(10);
      }
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  get name(): string {
    return this.spec.name;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** taskset execs node: this is the server's own pid, whose /proc/<pid>/status is sampled. */
  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.spec.name} did not start`);
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Throws, with the end of its log, when it has exited (`when`: before listening, while idle, …). */
  checkRunning(when: string): void {
    if (this.running) return;
    const exit = this.exitSignal ? `signal ${this.exitSignal}` : `exit code ${String(this.exitCode)}`;
    throw new Error(`${this.spec.name} exited (${exit}) ${when}:\n${this.logTail()}`);
  }

  log(): string {
    try {
      return readFileSync(this.spec.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  logTail(lines = 30): string {
    return this.log().trimEnd().split('\n').slice(-lines).join('\n');
  }

  private async terminate(): Promise<void> {
    if (!this.running) return;
    try {
      process.kill(this.pid, 'SIGTERM');
    } catch {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), STOP_GRACE_MS);
    });
    const outcome = await Promise.race([this.exited.then(() => 'exited' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      process.stderr.write(`${this.spec.name} did not stop within ${STOP_GRACE_MS} ms of SIGTERM: SIGKILL\n`);
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await this.exited;
    }
  }
}

/** Resolves once GET /health/ready answers 200 (polling every `everyMs`), with the time it did. */
export async function waitReady(port: number, timeoutMs = 30_000, everyMs = 5, alive?: () => boolean): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    try {
      const answer = await httpCall({ port, method: 'GET', path: '/health/ready', timeoutMs: 250 });
      if (answer.status === 200) return performance.now();
      last = `status ${answer.status}`;
    } catch (error) {
      last = errorText(error);
    }
    if (alive && !alive()) throw new Error(`the server exited before /health/ready answered 200 (last: ${last})`);
    if (performance.now() > deadline)
      throw new Error(`GET /health/ready did not answer 200 within ${timeoutMs} ms (last: ${last})`);
    await sleep(everyMs);
  }
}
