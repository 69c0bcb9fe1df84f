import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { basicAuthorization, type Credentials } from '../../client/index.js';

/**
 * What an outside end-to-end suite needs of the Museum Special Events service: a fresh service in
 * test mode (what `npm run start:test` starts: in-memory SQLite, a settable museum clock, a
 * reset), on a free port, and the three calls of docs/api.md "Test mode" a suite makes most.
 * Copy this file beside your suite; only `entry` (the service's `dist/test-service.js`) is yours.
 */
export interface MuseumTestService {
  readonly baseUrl: string;
  readonly credentials: Credentials;
  /** POST /testing/reset: every event, ticket, hour and key gone; the users stay. */
  reset(): Promise<void>;
  /** PUT /testing/clock: the museum's instant (ISO 8601 with its offset), frozen there by default. */
  setClock(now: string, frozen?: boolean): Promise<MuseumClock>;
  /** POST /testing/clock/advance: `seconds` forward. */
  advance(seconds: number): Promise<MuseumClock>;
  stop(): Promise<void>;
}

export interface MuseumClock {
  readonly now: string;
  readonly frozen: boolean;
  readonly museumDate: string;
  readonly timeZone: string;
}

/** Starts `node <entry>` on port 0 and resolves once it listens (its log line names the port). */
export async function startMuseumTestService(
  entry: string,
  env: Record<string, string> = {},
): Promise<MuseumTestService> {
  const credentials = { username: 'suite-admin', password: 'suite-admin-password-1234' };
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      ADMIN_USERNAME: credentials.username,
      ADMIN_PASSWORD: credentials.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await listeningAt(child);
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: basicAuthorization(credentials),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  return {
    baseUrl,
    credentials,
    reset: async () => {
      await call('POST', '/testing/reset');
    },
    setClock: async (now, frozen = true) =>
      (await call('PUT', '/testing/clock', { now, frozen })).json() as Promise<MuseumClock>,
    advance: async (seconds) =>
      (await call('POST', '/testing/clock/advance', { seconds })).json() as Promise<MuseumClock>,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function listeningAt(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('the museum service did not listen within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the museum service exited (${code}) before listening`)));
    lines.on('line', (line) => {
      const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
}
