import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from './helpers/built-service.js';
import { CHALLENGE, expectStatus, expectUnauthorized, validEvent, type Body } from './helpers/problem-assertions.js';
import {
  childEnv,
  copyProject,
  ExitRecorder,
  killLeftovers,
  ProcessRun,
  type LogLine,
} from './helpers/service-process.js';
import { basicHeader } from './helpers/test-app.js';

/**
 * The real service, started as a child process the way the README says (`npm start`: npm runs
 * `nest start`, which compiles src/ with tsc and then runs `node dist/main` as its child), driven
 * over TCP, then stopped with a signal.
 *
 * Observed with npm 11 and @nestjs/cli 12 (see the report in the tests below):
 * - `npm start` makes a tree npm -> sh -> nest -> sh -> node dist/main. A terminal's Ctrl-C (or
 *   a `kill` of the process group) reaches every process of it. npm and the shells die of the
 *   signal at once, nest exits 0 as soon as its child shell is gone; the service goes on, now an
 *   orphan, finishes its requests, logs "Closed" and exits 0. What npm reports is therefore
 *   neither the service's exit code nor the moment it stopped: the service's own exit code is
 *   read here from a preload (ExitRecorder) and its end from the output pipes closing.
 * - A signal sent to npm alone (as `docker stop` does to PID 1) reaches the shell, not the
 *   service: the service keeps running. Production starts `node dist/main.js` directly, whose
 *   exit code is its own (the second start below).
 *
 * The project is copied into a temporary directory (node_modules linked) so that `nest start`,
 * which deletes and rewrites dist/ on every start, never touches the working tree's dist/.
 */

const START_TIMEOUT = 150_000;
const STOP_TIMEOUT = 30_000;
const SHUTDOWN_REQUESTED = /^(SIGTERM|SIGINT) received/;

let workDir: string;
let project: string;
/** Each `npm start` records the exit codes of its Node processes in its own file. */
const recorders = new WeakMap<ProcessRun, ExitRecorder>();

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'museum-process-'));
  project = copyProject(mkdtempSync(join(workDir, 'project-')));
  // The direct starts (node dist/main.js) need dist/: the run's shared build, which is what
  // `npm run build` makes (tsc -p tsconfig.build.json); every `npm start` builds again.
  cpSync(dirname(buildService()), join(project, 'dist'), { recursive: true });
}, START_TIMEOUT + 30_000);

afterEach(() => killLeftovers());

afterAll(() => {
  killLeftovers();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function databaseUrl(): string {
  return `sqlite:${join(workDir, `events-${randomUUID()}.sqlite`)}`;
}

/** `npm start` in the project copy: PORT=0 (the OS picks the port), HOST=127.0.0.1. */
function npmStart(env: Record<string, string>): ProcessRun {
  const recorder = new ExitRecorder(mkdtempSync(join(workDir, 'exits-')));
  const run = new ProcessRun('npm', ['start'], {
    cwd: project,
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', NODE_OPTIONS: recorder.nodeOptions, ...env }),
  });
  recorders.set(run, recorder);
  return run;
}

/** `node dist/main.js`, what `npm run start:prod` runs, without npm in between. */
/** Makes a Node process report itself as 20.20.2 before the service's first module runs. */
const PRETEND_NODE_20 = encodeURIComponent('Object.defineProperty(process.versions, "node", { value: "20.20.2" });');

/** /usr/bin/node when it is a Node 20, else null. */
function systemNode20(): string | null {
  if (!existsSync('/usr/bin/node')) return null;
  const version = execFileSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).trim();
  return version.startsWith('v20.') ? '/usr/bin/node' : null;
}

function nodeStart(env: Record<string, string>): ProcessRun {
  return new ProcessRun(process.execPath, ['dist/main.js'], {
    cwd: project,
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', ...env }),
  });
}

/** The exit codes the service process (node dist/main) of an `npm start` recorded. */
function serviceExitCodes(run: ProcessRun): number[] {
  const recorder = recorders.get(run);
  if (!recorder) throw new Error('not an npm start');
  return recorder.of('dist/main').map((record) => record.code);
}

/** The banner AdminBootstrap prints when it generates the admin password. */
function parseBanner(stdout: string): { user: string; password: string } | undefined {
  const match =
    /shown only once:\n\s+user:\s+(\S+)\n\s+password:\s+(\S+)\n/.exec(stdout) ??
    /^\s+user:\s+(\S+)\s*\n\s+password:\s+(\S+)\s*$/m.exec(stdout);
  return match ? { user: match[1], password: match[2] } : undefined;
}

/** The log lines of the shutdown sequence, in order. */
function shutdownLines(run: ProcessRun): LogLine[] {
  return run.logs().filter((line) => line.context === 'Shutdown');
}

/** The service logged the start and the end of its shutdown, and nothing at error level. */
function expectLoggedShutdown(run: ProcessRun, signal: NodeJS.Signals): void {
  expect(shutdownLines(run).map(({ level, msg }) => ({ level, msg }))).toEqual([
    { level: 30, msg: expect.stringMatching(new RegExp(`^${signal} received`)) as unknown },
    { level: 30, msg: 'Closed' },
  ]);
  expect(run.logs().filter((line) => (line.level as number) >= 50)).toEqual([]);
}

/** The password appears nowhere in the output but in the banner, and in no log line. */
function expectPasswordOnlyInBanner(run: ProcessRun, password: string): void {
  expect(run.stdout.split(password)).toHaveLength(2);
  expect(run.stderr).not.toContain(password);
  const leaking = run.stdout.split('\n').filter((line) => line.startsWith('{') && line.includes(password));
  expect(leaking).toEqual([]);
}

/** Create, 401 without and with wrong credentials, delete, and the event really is gone. */
async function expectCreateAndDelete(baseUrl: string, username: string, password: string): Promise<void> {
  const auth = basicHeader(username, password);
  const event = validEvent();
  const path = `/special-events/${event.eventId as string}`;

  const created = await request(baseUrl).post('/special-events').set('Authorization', auth).send(event);
  expectStatus(created, 201);
  expect(created.headers['content-type']).toMatch(/^application\/json/);
  expect(created.headers.location).toBe(path);
  expect(created.body).toStrictEqual(event);

  expectUnauthorized(await request(baseUrl).post('/special-events').send(validEvent()), '/special-events');
  expectUnauthorized(await request(baseUrl).delete(path), path);
  const wrong = await request(baseUrl)
    .delete(path)
    .set('Authorization', basicHeader(username, `${password}x`));
  expectUnauthorized(wrong, path);
  expect(wrong.headers['www-authenticate']).toBe(CHALLENGE);

  const deleted = await request(baseUrl).delete(path).set('Authorization', auth);
  expectStatus(deleted, 204);
  expect(deleted.text).toBe('');
  expectStatus(await request(baseUrl).delete(path).set('Authorization', auth), 404);
}

/** Resolves once a new TCP connection to the port is refused: the service stopped listening. */
async function waitUntilRefused(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

function collect(res: IncomingMessage): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('error', reject);
    res.once('end', () =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

/**
 * POST /special-events that is provably in flight while `during` runs: the connection was
 * accepted (a first request on it was answered), the server has the request (it answered
 * `Expect: 100-continue`), and the body is sent only after `during` resolves.
 */
async function createWhile(port: number, auth: string, event: Body, during: () => Promise<void>): Promise<RawResponse> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await new Promise<RawResponse>((resolve, reject) => {
      httpRequest(
        { host: '127.0.0.1', port, agent, path: '/health/live' },
        (res) => void collect(res).then(resolve, reject),
      )
        .once('error', reject)
        .end();
    });
    expect(first.status).toBe(200);

    const body = Buffer.from(JSON.stringify(event), 'utf8');
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      agent,
      method: 'POST',
      path: '/special-events',
      headers: {
        Authorization: auth,
        'Content-Type': 'application/json',
        'Content-Length': body.length,
        Expect: '100-continue',
        Connection: 'close',
      },
    });
    const response = new Promise<RawResponse>((resolve, reject) => {
      req.once('response', (res) => void collect(res).then(resolve, reject));
      req.once('error', reject);
    });
    // Awaited below; until then a failure (the connection cut) must not be an unhandled rejection.
    response.catch(() => undefined);
    await new Promise<void>((resolve, reject) => {
      req.once('continue', resolve);
      req.once('error', reject);
      req.flushHeaders();
    });
    expect(req.reusedSocket).toBe(true);
    await during();
    req.end(body);
    return await response;
  } finally {
    agent.destroy();
  }
}

describe('npm start (the README way)', () => {
  it(
    'first start without ADMIN_*: prints a generated admin password once, in a banner and never in a log line; ' +
      'create 201, delete 204, anonymous 401; SIGTERM to the process group: "Closed" logged, service exits 0; ' +
      'a second start on the same database prints no password and the first one still works',
    async () => {
      const DATABASE_URL = databaseUrl();
      const first = npmStart({ DATABASE_URL });
      const port = await first.waitForPort(START_TIMEOUT);

      const banner = parseBanner(first.stdout);
      if (!banner) throw first.failure('no password banner');
      const { user, password } = banner;
      expect(user).toBe('admin');
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(first.stdout).toMatch(/=+\n {2}No users existed, so one was created\. This is shown only once:\n/);
      // The banner is printed before the service says it listens: nothing interleaves with it.
      expect(first.stdout.indexOf(password)).toBeLessThan(first.stdout.indexOf('Listening on'));

      await expectCreateAndDelete(`http://127.0.0.1:${port}`, user, password);

      first.signalGroup('SIGTERM');
      const npmStatus = await first.waitForExit(STOP_TIMEOUT);
      await first.waitForClose(STOP_TIMEOUT);
      // npm dies of the signal itself (it does not wait for the service); never a failure code.
      expect(npmStatus.signal ?? npmStatus.code).toBeOneOf(['SIGTERM', 0]);
      expect(serviceExitCodes(first)).toEqual([0]);
      expectLoggedShutdown(first, 'SIGTERM');
      expectPasswordOnlyInBanner(first, password);

      // Second start, same database: `node dist/main.js` (start:prod), whose exit code is its own.
      const second = nodeStart({ DATABASE_URL });
      const secondPort = await second.waitForPort(START_TIMEOUT);
      expect(second.stdout).not.toContain('shown only once');
      expect(second.stdout).not.toMatch(/password/i);
      expect(second.stdout).not.toContain(password);
      // The generated password still opens the door (auth runs first: 404 means authenticated).
      const unknown = `/special-events/${randomUUID()}`;
      expectStatus(
        await request(`http://127.0.0.1:${secondPort}`)
          .delete(unknown)
          .set('Authorization', basicHeader(user, password)),
        404,
      );

      second.signal('SIGTERM');
      expect(await second.waitForExit(STOP_TIMEOUT)).toEqual({ code: 0, signal: null });
      await second.waitForClose(STOP_TIMEOUT);
      expectLoggedShutdown(second, 'SIGTERM');
    },
    240_000,
  );

  it(
    'with ADMIN_USERNAME/ADMIN_PASSWORD: no banner, that user works over TCP; a request in flight at SIGTERM ' +
      'gets its 201 while new connections are refused; the service exits 0',
    async () => {
      const username = 'curator';
      const password = 'Curator-password-42';
      const run = npmStart({ DATABASE_URL: databaseUrl(), ADMIN_USERNAME: username, ADMIN_PASSWORD: password });
      const port = await run.waitForPort(START_TIMEOUT);

      expect(run.stdout).not.toContain('shown only once');
      expect(run.logs()).toContainEqual(
        expect.objectContaining({
          context: 'AdminBootstrap',
          msg: expect.stringContaining(`"${username}" from ADMIN_USERNAME`) as unknown,
        }),
      );
      await expectCreateAndDelete(`http://127.0.0.1:${port}`, username, password);

      const event = validEvent();
      const signalledAt: number[] = [];
      const inFlight = await createWhile(port, basicHeader(username, password), event, async () => {
        run.signalGroup('SIGTERM');
        signalledAt.push(Date.now());
        await run.waitFor(
          'shutdown log line',
          () => (shutdownLines(run).some((line) => SHUTDOWN_REQUESTED.test(String(line.msg))) ? true : undefined),
          STOP_TIMEOUT,
        );
        await waitUntilRefused(port, STOP_TIMEOUT);
      });
      expect({ status: inFlight.status, body: inFlight.text }).toEqual({ status: 201, body: JSON.stringify(event) });
      expect(inFlight.headers.location).toBe(`/special-events/${event.eventId as string}`);

      await run.waitForClose(STOP_TIMEOUT);
      // Bounded: nothing (timers, pools, idle connections) keeps the process alive after close.
      expect(Date.now() - signalledAt[0]).toBeLessThan(STOP_TIMEOUT);
      expect(serviceExitCodes(run)).toEqual([0]);
      expectLoggedShutdown(run, 'SIGTERM');
      expect(run.stdout).not.toContain(password);
      expect(run.stderr).not.toContain(password);
    },
    180_000,
  );

  it('an invalid environment (PORT=abc) stops the start: exit code 1, PORT named on stderr, nothing listens', async () => {
    const run = npmStart({ DATABASE_URL: databaseUrl(), PORT: 'abc' });
    const status = await run.waitForExit(START_TIMEOUT);
    await run.waitForClose(STOP_TIMEOUT);
    // nest start passes the service's exit code on, and npm passes nest's.
    expect(status).toEqual({ code: 1, signal: null });
    expect(serviceExitCodes(run)).toEqual([1]);
    expect(run.stderr).toMatch(/^Invalid configuration: PORT .+$/m);
    expect(run.logs()).toEqual([]);
  }, 180_000);
});

describe('node dist/main.js (the production start)', () => {
  it('refuses an unsupported Node (20) at once: exit 1, one line naming the supported versions, nothing else printed', async () => {
    // Node 20 as the process reports it, on the Node that runs this test...
    const runs = [['dist/main.js'], ['dist/users.cli.js', 'list']].map(
      (args) =>
        new ProcessRun(process.execPath, ['--import', `data:text/javascript,${PRETEND_NODE_20}`, ...args], {
          cwd: project,
          env: childEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl() }),
        }),
    );
    // ...and a real Node 20 where the machine has one (CI's and many users' machines do): a
    // dependency that fails to load on 20 must not get there before the check.
    const real = systemNode20();
    if (real === null)
      process.stderr.write('[service-process] no Node 20 at /usr/bin/node: the real-Node-20 start was not tried\n');
    else
      runs.push(
        new ProcessRun(real, ['dist/main.js'], {
          cwd: project,
          env: childEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl() }),
        }),
      );
    for (const run of runs) {
      expect(await run.waitForExit(STOP_TIMEOUT)).toEqual({ code: 1, signal: null });
      await run.waitForClose(STOP_TIMEOUT);
      expect(run.stderr).toMatch(
        /^museum-special-events needs Node\.js 22\.12 or later \(24 LTS recommended\); this is Node\.js 20\.\d+\.\d+\. .+\n$/,
      );
      expect(run.stdout).toBe('');
    }
  }, 120_000);

  it('exits 1 with the variable named on stderr for an invalid PORT, and never prints an invalid ADMIN_PASSWORD', async () => {
    const badPort = nodeStart({ DATABASE_URL: databaseUrl(), PORT: 'abc' });
    expect(await badPort.waitForExit(STOP_TIMEOUT)).toEqual({ code: 1, signal: null });
    await badPort.waitForClose(STOP_TIMEOUT);
    expect(badPort.stderr).toMatch(/^Invalid configuration: PORT must be .+\n$/);
    expect(badPort.stdout).toBe('');

    const tooShort = 'short-pw';
    const badPassword = nodeStart({ DATABASE_URL: databaseUrl(), ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: tooShort });
    expect(await badPassword.waitForExit(STOP_TIMEOUT)).toEqual({ code: 1, signal: null });
    await badPassword.waitForClose(STOP_TIMEOUT);
    expect(badPassword.stderr).toMatch(/^Invalid configuration: ADMIN_PASSWORD .+\n$/);
    expect(badPassword.stderr).not.toContain(tooShort);
    expect(badPassword.stdout).toBe('');
  }, 120_000);

  it('SIGINT (Ctrl-C) closes like SIGTERM and exits 0', async () => {
    const run = nodeStart({
      DATABASE_URL: databaseUrl(),
      ADMIN_USERNAME: 'curator',
      ADMIN_PASSWORD: 'Curator-password-42',
    });
    await run.waitForPort(START_TIMEOUT);
    run.signal('SIGINT');
    expect(await run.waitForExit(STOP_TIMEOUT)).toEqual({ code: 0, signal: null });
    await run.waitForClose(STOP_TIMEOUT);
    expectLoggedShutdown(run, 'SIGINT');
  }, 120_000);
});
