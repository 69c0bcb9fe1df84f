/**
 * Starting, pinning, watching and stopping the servers under test: the bare Express baseline, the
 * bare NestJS floor and the compiled service. Their output goes to log files (one JSON line per request would otherwise
 * flood the terminal and cost the benchmark process CPU on the load generator's core).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { childEnv, ROOT } from '../../test/helpers/service-process.js';
import { onCleanup } from './cleanup.js';
import { httpCall, sleep } from './http.js';

/** The core of the servers; the benchmark process (autocannon) runs on core 0. */
export const SERVER_CORE = 1;
export const LOAD_CORE = 0;

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
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  private readonly exited: Promise<void>;
  private readonly unregister: () => Promise<void>;

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
    this.unregister = onCleanup(`stop ${spec.name}`, () => this.terminate());
  }

  /** Spawns the process (under `taskset -c SERVER_CORE` when pinning) without waiting. */
  static spawn(spec: ServerSpec): ServerProcess {
    const log = openSync(spec.logFile, 'a');
    try {
      const node = [process.execPath, ...spec.nodeArgs];
      const [command, ...args] = spec.pinning.enabled ? ['taskset', '-c', String(SERVER_CORE), ...node] : node;
      const spawnedAt = performance.now();
      const child = spawn(command as string, args, {
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
  static async start(spec: ServerSpec, timeoutMs = 60_000): Promise<StartedServer> {
    const server = ServerProcess.spawn(spec);
    try {
      const port = await server.waitForPort(timeoutMs);
      return new StartedServer(server, port);
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  /** taskset execs node: this is the server's own pid, whose /proc/<pid>/status is sampled. */
  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.spec.name} did not start`);
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  private async waitForPort(timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const match = LISTENING.exec(this.log());
      if (match) return Number(match[1]);
      if (!this.running)
        throw new Error(`${this.spec.name} exited (${this.describeExit()}) before listening:\n${this.logTail()}`);
      if (performance.now() > deadline)
        throw new Error(`${this.spec.name} did not listen within ${timeoutMs} ms:\n${this.logTail()}`);
      await sleep(10);
    }
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

  describeExit(): string {
    if (this.running) return 'running';
    return this.exitSignal ? `signal ${this.exitSignal}` : `exit code ${String(this.exitCode)}`;
  }

  /** SIGTERM, then SIGKILL when it has not exited after STOP_GRACE_MS. */
  stop(): Promise<void> {
    return this.unregister();
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

/** A server that listens. */
export class StartedServer {
  constructor(
    readonly process: ServerProcess,
    readonly port: number,
  ) {}

  get name(): string {
    return this.process.spec.name;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.process.pid;
  }

  stop(): Promise<void> {
    return this.process.stop();
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
      last = error instanceof Error ? error.message : String(error);
    }
    if (alive && !alive()) throw new Error(`the server exited before /health/ready answered 200 (last: ${last})`);
    if (performance.now() > deadline)
      throw new Error(`GET /health/ready did not answer 200 within ${timeoutMs} ms (last: ${last})`);
    await sleep(everyMs);
  }
}

/** A port free right now on 127.0.0.1 (for start-to-ready, which polls before any log line). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Milliseconds from spawning the server to its first 200 from GET /health/ready (5 ms polls). */
export async function measureStartToReady(spec: ServerSpec): Promise<number> {
  const port = await freePort();
  const server = ServerProcess.spawn({ ...spec, env: { ...spec.env, PORT: String(port) } });
  try {
    const readyAt = await waitReady(port, 60_000, 5, () => server.running);
    return readyAt - server.spawnedAt;
  } catch (error) {
    throw new Error(`${spec.name}: ${error instanceof Error ? error.message : String(error)}\n${server.logTail()}`, {
      cause: error,
    });
  } finally {
    await server.stop();
  }
}

/** The largest VmRSS of a process, read from /proc/<pid>/status every `everyMs`. */
export class RssSampler {
  private maxKib = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pid: number,
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.maxKib = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  /** Stops sampling; the maximum in MiB (0 when nothing could be read). */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.maxKib / 1024;
  }

  private sample(): void {
    const kib = readRssKib(this.pid);
    if (kib !== undefined && kib > this.maxKib) this.maxKib = kib;
  }
}

export function readRssKib(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** How long a server sits idle, once ready, before its idle RSS is read. */
export const IDLE_RSS_AFTER_MS = 1000;

/**
 * VmRSS in MiB of a server that is ready and has had no load yet, read once after
 * IDLE_RSS_AFTER_MS: what the process costs at rest, before any request grows its heap (the
 * readiness polls aside). Undefined when /proc cannot be read.
 */
export async function idleRssMiB(server: StartedServer): Promise<number | undefined> {
  await sleep(IDLE_RSS_AFTER_MS);
  if (!server.process.running) {
    throw new Error(
      `${server.name} exited (${server.process.describeExit()}) while idle:\n${server.process.logTail()}`,
    );
  }
  const kib = readRssKib(server.pid);
  return kib === undefined ? undefined : kib / 1024;
}
