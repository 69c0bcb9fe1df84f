import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, useBuiltService, type RunningService } from './helpers/built-service.js';
import {
  CreateLoad,
  expectStoredMatchesSent,
  rowToEvent,
  type SentCreate,
  type StoredEvent,
} from './helpers/create-load.js';
import { validEvent } from './helpers/problem-assertions.js';
import { childEnv } from './helpers/service-process.js';
import { basicHeader } from './helpers/test-app.js';

/**
 * Graceful shutdown (issue 5, item 4): SIGTERM to the built service while keep-alive clients
 * send creates without pause.
 *
 * Which requests had the server accepted? A client alone cannot always tell: when the server
 * closes an idle kept-alive connection (as Node's server.close() does) at the moment the client
 * writes its next request on it, the client sees ECONNRESET exactly as it would for a request
 * the server read and then dropped. So acceptance is decided with two witnesses the server
 * cannot fake away:
 * - the service's log: the request logger (the first middleware) writes one line per request
 *   it saw, completed or aborted, with the X-Request-Id the client chose; a request whose
 *   headers reached the application is in the log even if its connection was destroyed;
 * - the database: a stored row means the request was processed.
 * A request is ACCEPTED if a response arrived, or the log names it, or its row is stored. Every
 * accepted request must have got a complete 201. A request that was not accepted may only have
 * failed because the connection was refused (ECONNREFUSED: a new connection after the listener
 * closed) or, after SIGTERM, reset on a reused kept-alive connection the server closed while idle.
 * A server that destroys connections with requests in flight (Nest's forceCloseConnections)
 * fails this: those requests are in the log, or stored, without a 201.
 */

const USER = 'shutdown';
const PASSWORD = 'shutdown-password-1234';
const AUTH = basicHeader(USER, PASSWORD);
const CLIENTS = 8;
/** Generous: two cores shared with other test files. */
const EXIT_BOUND_MS = 10_000;
const SEED = Number(process.env.SHUTDOWN_SEED ?? Date.now() % 2 ** 31);

/** Tries a new TCP connection: 'connected' (then closed at once) or the error code. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('graceful shutdown: SIGTERM under concurrent creates', () => {
  const built = useBuiltService('sqlite');
  let service: RunningService;

  it('answers every accepted request, refuses new connections, exits 0, loses no acknowledged write', async () => {
    process.stdout.write(`[shutdown] seed ${SEED} (SHUTDOWN_SEED=${SEED} to repeat)\n`);
    service = await startService(
      built.entry,
      {
        DATABASE_URL: built.database.url,
        DB_MIGRATIONS_RUN: 'true',
        ADMIN_USERNAME: USER,
        ADMIN_PASSWORD: PASSWORD,
      },
      60_000,
    );
    const port = Number(new URL(service.baseUrl).port);
    const warmUp = validEvent();
    expect(
      (await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(warmUp)).status,
    ).toBe(201);

    const load = new CreateLoad({
      baseUrl: service.baseUrl,
      authorization: AUTH,
      clients: CLIENTS,
      seed: SEED,
      requestTimeoutMs: 30_000,
      slowBodyMs: 200,
    });
    load.start();
    await load.untilAcknowledged(50, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const sigtermAt = Date.now();
    service.run.signal('SIGTERM');
    const exited = service.run.waitForExit(EXIT_BOUND_MS);
    // New connections: probed until one is refused (the listener is closed), then once more.
    const probes: { at: number; outcome: string }[] = [];
    while (Date.now() - sigtermAt < EXIT_BOUND_MS) {
      const outcome = await tryConnect(port);
      probes.push({ at: Date.now() - sigtermAt, outcome });
      if (outcome === 'ECONNREFUSED') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const status = await exited;
    const exitMs = Date.now() - sigtermAt;
    // Clients still looping on a kept-alive connection would be a server that never stops
    // serving: bounded by the exit above; stop() only collects them.
    await load.stop();
    probes.push({ at: Date.now() - sigtermAt, outcome: await tryConnect(port) });

    expect(status).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(EXIT_BOUND_MS);
    expect(probes.at(-2)?.outcome).toBe('ECONNREFUSED');
    expect(probes.at(-1)?.outcome).toBe('ECONNREFUSED');

    // Witnesses of acceptance: the service's request log lines and the stored rows.
    const logged = new Map<string, Record<string, unknown>>();
    for (const line of service.run.logs()) {
      if (typeof line.requestId === 'string' && line.route !== undefined) logged.set(line.requestId, line);
    }
    const reader = new Database(built.database.url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    let rows: StoredEvent[];
    try {
      expect(reader.pragma('integrity_check', { simple: true })).toBe('ok');
      rows = (reader.prepare('SELECT * FROM special_events').all() as Record<string, unknown>[]).map(rowToEvent);
    } finally {
      reader.close();
    }
    const storedIds = new Set(rows.map((row) => row.eventId));
    const accepted = (sent: SentCreate): boolean =>
      sent.status !== undefined || logged.has(sent.requestId) || storedIds.has(sent.body.eventId.toLowerCase());

    const describeRequest = (sent: SentCreate) => ({
      requestId: sent.requestId,
      msAfterSigterm: sent.startedAt - sigtermAt,
      status: sent.status,
      error: sent.error,
      reusedSocket: sent.reusedSocket,
      written: sent.written,
      logged: logged.get(sent.requestId),
      stored: storedIds.has(sent.body.eventId.toLowerCase()),
    });
    const acceptedRequests = load.sent.filter(accepted);
    const notAccepted = load.sent.filter((sent) => !accepted(sent));
    // Every accepted request completed with its real answer: a whole 201 response.
    expect(
      acceptedRequests.filter((sent) => sent.status !== 201 || sent.error !== undefined).map(describeRequest),
      'accepted requests without a complete 201',
    ).toEqual([]);
    // The only failures of requests the service never saw (not logged, not stored): refused new
    // connections, resets after SIGTERM of idle kept-alive connections, and resets of new
    // connections still in the kernel's accept queue when the listening socket closed (seen in
    // CI: a request written 11 ms after SIGTERM on a fresh socket). Requests the service did see
    // are held to a complete 201 above, which is what catches a server that drops them.
    expect(
      notAccepted
        .filter(
          (sent) =>
            sent.error !== 'ECONNREFUSED' &&
            !(['ECONNRESET', 'EPIPE'].includes(sent.error ?? '') && (sent.settledAt ?? 0) >= sigtermAt),
        )
        .map(describeRequest),
      'requests that failed otherwise',
    ).toEqual([]);
    // Every client ended on a refused connection: the server stopped accepting, it did not hang.
    expect(notAccepted.filter((sent) => sent.error === 'ECONNREFUSED')).toHaveLength(CLIENTS);

    // No acknowledged write lost, every row is exactly what a client sent and got a 201 for.
    const loadRows = rows.filter((row) => row.eventId !== warmUp.eventId);
    expect(rows.length - loadRows.length).toBe(1);
    expect(expectStoredMatchesSent(loadRows, load.sent).map(describeRequest), 'stored without a 201').toEqual([]);

    const afterSigterm = acceptedRequests.filter((sent) => (sent.settledAt ?? 0) >= sigtermAt);
    process.stdout.write(
      `[shutdown] ${load.summary()}; accepted ${acceptedRequests.length} (${afterSigterm.length} answered after SIGTERM), ` +
        `not accepted ${notAccepted.length} (${notAccepted.filter((s) => s.error !== 'ECONNREFUSED').length} idle-close resets), ` +
        `first refused connection ${probes.find((p) => p.outcome === 'ECONNREFUSED')?.at ?? '?'} ms after SIGTERM, ` +
        `exit 0 after ${exitMs} ms, lost 0\n`,
    );
  }, 180_000);
});

describe('SIGTERM with clients that never finish: a bounded grace period, then exit', () => {
  const GRACE_SECONDS = 2;
  const built = useBuiltService('sqlite');

  /** A connection that writes `first`, then `next()` every 500 ms until the server closes it. */
  function trickle(port: number, first: string, next: () => string): { sent: Promise<void>; closed: Promise<string> } {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    const sent = new Promise<void>((resolve) => socket.on('connect', () => socket.write(first, () => resolve())));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const timer = setInterval(() => {
      if (socket.writable) socket.write(next());
    }, 500);
    return {
      sent,
      closed: new Promise((resolve) => {
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(timer);
          resolve(received);
        });
      }),
    };
  }

  it('a client trickling headers and slow authenticated uploads are cut off after SHUTDOWN_GRACE_SECONDS; the process exits 0', async () => {
    const service = await startService(
      built.entry,
      {
        DATABASE_URL: built.database.url,
        DB_MIGRATIONS_RUN: 'true',
        ADMIN_USERNAME: USER,
        ADMIN_PASSWORD: PASSWORD,
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      },
      60_000,
    );
    const port = Number(new URL(service.baseUrl).port);
    // Cache the credentials, so that the uploads reach their bodies at once.
    expect(
      (await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent())).status,
    ).toBe(201);

    let header = 0;
    const headers = trickle(
      port,
      'POST /special-events HTTP/1.1\r\nHost: museum\r\n',
      () => `X-Slow-${header++}: a\r\n`,
    );
    const uploads = Array.from({ length: 5 }, () =>
      trickle(
        port,
        `POST /special-events HTTP/1.1\r\nHost: museum\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":"`,
        () => 'x',
      ),
    );
    // Every connection is open and has begun its request before the signal.
    await Promise.all([headers.sent, ...uploads.map((upload) => upload.sent)]);

    const sigtermAt = Date.now();
    service.run.signal('SIGTERM');
    // Without a bound these connections held the process for as long as they kept sending.
    expect(await service.run.waitForExit(GRACE_SECONDS * 1000 + 15_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - sigtermAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 100);
    await Promise.all([headers.closed, ...uploads.map((upload) => upload.closed)]);
    const messages = service.run.logs().map((line) => String(line.msg));
    // How many the server had accepted by the signal depends on the machine's speed; that the
    // grace period ended by closing connections, and that all six were closed, does not.
    const graceOver = messages.findIndex((msg) =>
      new RegExp(`^Grace period of ${GRACE_SECONDS} s over: closing [1-6] connections still open$`).test(msg),
    );
    expect(graceOver).toBeGreaterThan(0);
    expect(messages.indexOf('Closed')).toBeGreaterThan(graceOver);
  }, 120_000);
});

describe("SIGTERM with standard output's reader gone (npm start | tee log, tee killed)", () => {
  const built = useBuiltService('sqlite');
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'museum-fifo-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('the process still exits 0: the last log lines meet EPIPE as an event, not a synchronous retry loop', async () => {
    const fifo = join(dir, 'stdout');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    reader.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const writeEnd = await open(fifo, 'w');
    const service = spawn(process.execPath, [built.entry], {
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: built.database.url,
        DB_MIGRATIONS_RUN: 'true',
        ADMIN_USERNAME: USER,
        ADMIN_PASSWORD: PASSWORD,
      }),
      stdio: ['ignore', writeEnd.fd, 'ignore'],
    });
    await writeEnd.close();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      service.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      for (let waited = 0; !output.includes('Listening on http://127.0.0.1:'); waited += 100) {
        expect(waited, `no listening line; output so far:\n${output}`).toBeLessThan(60_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      reader.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      service.kill('SIGTERM');
      const outcome = await Promise.race([
        exited,
        new Promise<string>((resolve) => setTimeout(() => resolve('still running 15 s after SIGTERM'), 15_000)),
      ]);
      expect(outcome).toEqual({ code: 0, signal: null });
    } finally {
      service.kill('SIGKILL');
      reader.kill('SIGKILL');
    }
  }, 120_000);
});
