/**
 * The soak (issue 27, target 4): a mixed load of creates, gets, updates, list pages and deletes
 * for minutes on one service, with the heap read after a full collection once the warm-up is
 * over, at every sample point and at the end. A leak shows as a heap that keeps growing; the
 * target is an end within 10% of the heap after warm-up.
 *
 * Each autocannon connection goes round create → get → update → list → delete of its own event,
 * so the table stays the size it started at and the heap has no reason to grow with the data.
 * The heap is read through the inspector (the service is started with `--inspect` on a port of
 * 127.0.0.1 for this run only): `HeapProfiler.collectGarbage`, then `process.memoryUsage()`.
 * Collecting first is what makes two readings comparable: without it a reading says more about
 * where the collector was in its cycle than about what the process holds.
 */
import autocannon from 'autocannon';
import { EVENT_BODY } from '../servers/bodies.js';
import { serviceEnv, VALID_AUTHORIZATION, type BenchDatabase } from '../servers/databases.js';
import { sleep } from '../servers/http.js';
import { ServerProcess, waitReady, type Pinning } from '../servers/process.js';
import { LIST_PATH, UPDATE_BODY } from '../workloads/special-events.js';
import { RssSampler } from './rss.js';
import { freePort } from './startup.js';

export interface HeapSample {
  /** Seconds since the end of the warm-up. */
  readonly atSec: number;
  /** process.memoryUsage().heapUsed after a full collection, MiB. */
  readonly heapUsedMiB: number;
  readonly rssMiB: number;
}

export interface SoakResult {
  readonly database: BenchDatabase['kind'];
  readonly warmupSec: number;
  readonly durationSec: number;
  readonly requests: number;
  /** Cycles (create, get, update, list, delete) completed per second. */
  readonly requestsPerSec: number;
  /** Responses other than 201, 200, 200, 200, 204 in that order, and connection errors. */
  readonly unexpected: number;
  readonly errors: number;
  /** The first sample is the heap after warm-up; the last, the heap at the end. */
  readonly samples: readonly HeapSample[];
  /** Heap at the end ÷ heap after warm-up. */
  readonly endOverWarm: number;
  readonly rssMaxMiB: number;
}

const MIB = 1024 * 1024;

export async function measureSoak(options: {
  readonly database: BenchDatabase;
  /** The service's compiled main.js. */
  readonly entry: string;
  readonly dir: string;
  readonly pinning: Pinning;
  readonly warmupSec: number;
  readonly durationSec: number;
  readonly samples: number;
  readonly connections: number;
}): Promise<SoakResult> {
  const { database, warmupSec, durationSec, connections } = options;
  const inspectPort = await freePort();
  const server = await ServerProcess.start({
    name: `soak-${database.kind}`,
    nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`, options.entry],
    env: serviceEnv(database.url, database.env),
    logFile: `${options.dir}/soak-${database.kind}.log`,
    pinning: options.pinning,
  });
  try {
    await waitReady(server.port);
    const inspector = await Inspector.connect(inspectPort);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      await mixedLoad(base, connections, warmupSec);
      const rss = new RssSampler(server.pid);
      rss.start();
      const samples: HeapSample[] = [await sample(inspector, server.pid, 0)];
      let requests = 0;
      let unexpected = 0;
      let errors = 0;
      const slice = durationSec / options.samples;
      for (let index = 1; index <= options.samples; index++) {
        const run = await mixedLoad(base, connections, slice);
        requests += run.requests;
        unexpected += run.unexpected;
        errors += run.errors;
        samples.push(await sample(inspector, server.pid, Math.round(index * slice)));
        process.stderr.write(
          `  soak ${database.kind}: ${Math.round(index * slice)} s, heap ${samples.at(-1)?.heapUsedMiB.toFixed(1)} MiB\n`,
        );
      }
      const first = samples[0] as HeapSample;
      const last = samples.at(-1) as HeapSample;
      return {
        database: database.kind,
        warmupSec,
        durationSec,
        requests,
        requestsPerSec: requests / durationSec,
        unexpected,
        errors,
        samples,
        endOverWarm: last.heapUsedMiB / first.heapUsedMiB,
        rssMaxMiB: Math.max(rss.stop(), ...samples.map((s) => s.rssMiB)),
      };
    } finally {
      inspector.close();
    }
  } finally {
    await server.stop();
  }
}

async function sample(inspector: Inspector, pid: number, atSec: number): Promise<HeapSample> {
  // Settle: the last requests' objects are released once their sockets are done.
  await sleep(500);
  await inspector.call('HeapProfiler.collectGarbage');
  const answer = (await inspector.call('Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  })) as { result?: { value?: string } };
  const usage = JSON.parse(answer.result?.value ?? '{}') as { heapUsed?: number; rss?: number };
  if (typeof usage.heapUsed !== 'number') throw new Error(`soak: no heap reading from pid ${pid}`);
  return { atSec, heapUsedMiB: usage.heapUsed / MIB, rssMiB: (usage.rss ?? 0) / MIB };
}

interface MixedRun {
  readonly requests: number;
  readonly unexpected: number;
  readonly errors: number;
}

/** create → get → update → list → delete, per connection, for `seconds`. */
async function mixedLoad(base: string, connections: number, seconds: number): Promise<MixedRun> {
  const auth = { authorization: VALID_AUTHORIZATION };
  const json = { ...auth, 'content-type': 'application/json' };
  type Context = { eventId?: string };
  const byId =
    (method: 'GET' | 'PATCH' | 'DELETE', extra: Partial<autocannon.Request> = {}) =>
    (request: autocannon.Request, context: Context): autocannon.Request => ({
      ...request,
      ...extra,
      method,
      path: `/special-events/${context.eventId ?? ''}`,
    });
  const expected = [201, 200, 200, 200, 204];
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: '/special-events',
            headers: json,
            body: EVENT_BODY,
            onResponse: (status: number, body: string, context: Context) => {
              context.eventId = status === 201 ? (JSON.parse(body) as { eventId?: string }).eventId : undefined;
            },
          },
          { method: 'GET', headers: auth, setupRequest: byId('GET') },
          { method: 'PATCH', headers: json, body: UPDATE_BODY, setupRequest: byId('PATCH') },
          { method: 'GET', path: LIST_PATH, headers: auth },
          { method: 'DELETE', headers: auth, setupRequest: byId('DELETE') },
        ] as autocannon.Request[],
      },
      (error: unknown, done: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
        else resolve(done);
      },
    );
    // Each connection answers its requests in the order it sent them.
    const position = new WeakMap<object, number>();
    instance.on('response', (client: object, status: number) => {
      const step = position.get(client) ?? 0;
      if (status !== expected[step]) unexpected++;
      position.set(client, (step + 1) % expected.length);
    });
  });
  return { requests: result.requests.total, unexpected, errors: result.errors };
}

/** A Chrome DevTools Protocol session over the inspector's WebSocket (Node's global WebSocket). */
class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, (value: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
      if (message.id === undefined) return;
      this.pending.get(message.id)?.(message.error ? { error: message.error } : message.result);
      this.pending.delete(message.id);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`soak: no inspector target on 127.0.0.1:${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`soak: cannot open ${url}`)), { once: true });
    });
    return new Inspector(socket);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`soak: ${method} had no answer in 30 s`)), 30_000);
      this.pending.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
