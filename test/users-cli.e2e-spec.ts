import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, expectUnauthorized, validEvent } from './helpers/problem-assertions.js';
import { basicHeader, createTestApp, TEST_PASSWORD, TEST_USER, type TestApp } from './helpers/test-app.js';
import { UsersService } from '../src/auth/users.service.js';
import { useTestDatabase } from './helpers/test-database.js';
import { buildService } from './helpers/built-service.js';
import { runUsersCli, type CliResult } from './helpers/users-cli.js';

/**
 * The users CLI (the password on standard input) on a temporary SQLite file; then the CLI and the
 * service (built exactly as main.ts builds it) on the same file: what one writes, the other
 * honours. The first test runs it as the README does (`npm run -s users -- ...`); the others run
 * the same CLI from the run's shared build, without tsx's compile at every call.
 */

const dir = mkdtempSync(join(tmpdir(), 'museum-users-cli-'));

beforeAll(() => {
  buildService();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function databaseUrl(): string {
  return `sqlite:${join(dir, `users-${randomUUID()}.sqlite`)}`;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** The usage text's first line and its `add` line. */
const USAGE = /Manage the users who may call the service[\s\S]*npm run users -- add <username>/;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A string matches itself only. */
const exactly = (text: string): RegExp => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** Exit code and both outputs at once, so that a failure shows everything the CLI said. */
function expectResult(
  result: CliResult,
  expected: { code: number; stdout: string | RegExp; stderr: string | RegExp },
): void {
  const [stdout, stderr] = [expected.stdout, expected.stderr].map((text) =>
    text instanceof RegExp ? text : exactly(text),
  );
  expect(result).toEqual({
    code: expected.code,
    stdout: expect.stringMatching(stdout),
    stderr: expect.stringMatching(stderr),
  });
}

/** Nothing the CLI printed contains the password or a password hash. */
function expectNoSecrets(results: CliResult[], passwords: string[]): void {
  for (const { stdout, stderr } of results) {
    for (const password of passwords) expect(stdout + stderr).not.toContain(password);
    expect(stdout + stderr).not.toContain('$scrypt$');
  }
}

describe('users CLI', () => {
  it('add reads the password from the first line of stdin; list and list --json show the user, never a secret', async () => {
    const DATABASE_URL = databaseUrl();
    const password = 'alice-password-1';
    const secondLine = 'not-the-password-2';

    // As the README runs it: through npm and its `users` script.
    const added = await runUsersCli(['add', 'alice'], {
      databaseUrl: DATABASE_URL,
      stdin: `${password}\n${secondLine}\n`,
      viaNpm: true,
    });
    expectResult(added, { code: 0, stdout: 'Added user "alice" (editor).\n', stderr: '' });

    const list = await runUsersCli(['list'], { databaseUrl: DATABASE_URL, viaNpm: true });
    expectResult(list, { code: 0, stdout: /^alice\teditor\t\(created \d{4}-\d\d-\d\dT[\d:.]+Z\)\n$/, stderr: '' });

    const json = await runUsersCli(['list', '--json'], { databaseUrl: DATABASE_URL, viaNpm: true });
    expectResult(json, { code: 0, stdout: /^\[.*\]\n$/, stderr: '' });
    const users = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(users).toEqual([
      {
        username: 'alice',
        role: 'editor',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    ]);
    expect(users[0].updatedAt).toBe(users[0].createdAt);

    expectNoSecrets([added, list, json], [password, secondLine]);
  }, 120_000);

  it('add --role viewer makes a viewer; role changes it; list and list --json show the role; a wrong role exits 2', async () => {
    const DATABASE_URL = databaseUrl();
    const cli = (args: string[], stdin?: string) => runUsersCli(args, { databaseUrl: DATABASE_URL, stdin });
    expectResult(await cli(['add', 'kiosk', '--role', 'viewer'], 'kiosk-password-1\n'), {
      code: 0,
      stdout: 'Added user "kiosk" (viewer).\n',
      stderr: '',
    });
    expectResult(await cli(['add', '--role=editor', 'curator'], 'curator-password-1\n'), {
      code: 0,
      stdout: 'Added user "curator" (editor).\n',
      stderr: '',
    });
    const roles = async () =>
      (JSON.parse((await cli(['list', '--json'])).stdout) as { username: string; role: string }[]).map(
        ({ username, role }) => [username, role],
      );
    expect(await roles()).toEqual([
      ['curator', 'editor'],
      ['kiosk', 'viewer'],
    ]);
    expectResult(await cli(['list']), {
      code: 0,
      stdout: /^curator\teditor\t\(created [^)]+\)\nkiosk\tviewer\t\(created [^)]+\)\n$/,
      stderr: '',
    });

    expectResult(await cli(['role', 'kiosk', 'editor']), { code: 0, stdout: '"kiosk" is now editor.\n', stderr: '' });
    expectResult(await cli(['role', 'curator', 'viewer']), {
      code: 0,
      stdout: '"curator" is now viewer.\n',
      stderr: '',
    });
    expect(await roles()).toEqual([
      ['curator', 'viewer'],
      ['kiosk', 'editor'],
    ]);
    expectResult(await cli(['add', 'door', '--role', 'box-office'], 'door-password-12\n'), {
      code: 0,
      stdout: 'Added user "door" (box-office).\n',
      stderr: '',
    });
    expectResult(await cli(['role', 'door', 'box-office']), {
      code: 0,
      stdout: '"door" is now box-office.\n',
      stderr: '',
    });
    expect(await roles()).toEqual([
      ['curator', 'viewer'],
      ['door', 'box-office'],
      ['kiosk', 'editor'],
    ]);
    expectResult(await cli(['remove', 'door']), { code: 0, stdout: 'Removed user "door".\n', stderr: '' });

    expectResult(await cli(['role', 'nobody', 'viewer']), { code: 1, stdout: '', stderr: 'No user "nobody".\n' });
    expectResult(await cli(['role', 'kiosk', 'owner']), {
      code: 2,
      stdout: '',
      stderr: /^Unknown role: owner; use viewer, box-office, editor or admin\./,
    });
    expectResult(await cli(['role', 'kiosk']), { code: 2, stdout: '', stderr: /^role needs a user name and a role/ });
    expectResult(await cli(['add', 'other', '--role'], 'other-password-1\n'), {
      code: 2,
      stdout: '',
      stderr: /^--role needs a value/,
    });
    expectResult(await cli(['add', 'other', '--role', 'root'], 'other-password-1\n'), {
      code: 2,
      stdout: '',
      stderr: /^Unknown role: root/,
    });
    expect(await roles()).toEqual([
      ['curator', 'viewer'],
      ['kiosk', 'editor'],
    ]);
    expectResult(await cli(['role', 'kiosk', 'admin']), { code: 0, stdout: '"kiosk" is now admin.\n', stderr: '' });
    expect(await roles()).toEqual([
      ['curator', 'viewer'],
      ['kiosk', 'admin'],
    ]);
  }, 180_000);

  it('passwd changes the password (updatedAt moves), remove deletes the user, list then shows none', async () => {
    const DATABASE_URL = databaseUrl();
    expectResult(await runUsersCli(['add', 'bob'], { databaseUrl: DATABASE_URL, stdin: 'bob-password-old\n' }), {
      code: 0,
      stdout: 'Added user "bob" (editor).\n',
      stderr: '',
    });
    const changed = await runUsersCli(['passwd', 'bob'], { databaseUrl: DATABASE_URL, stdin: 'bob-password-new\n' });
    expectResult(changed, { code: 0, stdout: 'Changed the password of "bob".\n', stderr: '' });
    const [bob] = JSON.parse((await runUsersCli(['list', '--json'], { databaseUrl: DATABASE_URL })).stdout) as {
      createdAt: string;
      updatedAt: string;
    }[];
    expect(Date.parse(bob.updatedAt)).toBeGreaterThan(Date.parse(bob.createdAt));

    const removed = await runUsersCli(['remove', 'bob'], { databaseUrl: DATABASE_URL });
    expectResult(removed, { code: 0, stdout: 'Removed user "bob".\n', stderr: '' });
    expectResult(await runUsersCli(['list'], { databaseUrl: DATABASE_URL }), {
      code: 0,
      stdout: 'No users.\n',
      stderr: '',
    });
    expectResult(await runUsersCli(['list', '--json'], { databaseUrl: DATABASE_URL }), {
      code: 0,
      stdout: '[]\n',
      stderr: '',
    });
    expectNoSecrets([changed, removed], ['bob-password-old', 'bob-password-new']);
  }, 120_000);

  it('refuses with exit 1: add of an existing user, remove or passwd of a missing one, a too-short or empty password', async () => {
    const DATABASE_URL = databaseUrl();
    const cli = (args: string[], stdin?: string): Promise<CliResult> =>
      runUsersCli(args, { databaseUrl: DATABASE_URL, stdin });
    expect((await cli(['add', 'alice'], 'alice-password-1\n')).code).toBe(0);

    expectResult(await cli(['add', 'alice'], 'another-password-2\n'), {
      code: 1,
      stdout: '',
      stderr: 'User "alice" already exists.\n',
    });
    expectResult(await cli(['remove', 'nobody']), { code: 1, stdout: '', stderr: 'No user "nobody".\n' });
    expectResult(await cli(['passwd', 'nobody'], 'nobody-password-1\n'), {
      code: 1,
      stdout: '',
      stderr: 'No user "nobody".\n',
    });
    const tooShort = await cli(['add', 'carol'], 'short\n');
    expectResult(tooShort, { code: 1, stdout: '', stderr: /^The password must be 12 to 1024 characters\.\n$/ });
    expectResult(await cli(['add', 'carol']), {
      code: 1,
      stdout: '',
      stderr: /^The password must be 12 to 1024 characters\.\n$/,
    });

    // Nothing of the refused commands was stored: alice only, with her first password's timestamps.
    const users = JSON.parse((await cli(['list', '--json'])).stdout) as {
      username: string;
      createdAt: string;
      updatedAt: string;
    }[];
    expect(users.map((user) => user.username)).toEqual(['alice']);
    expect(users[0].updatedAt).toBe(users[0].createdAt);
  }, 120_000);

  it('usage errors exit 2 with the usage on stderr; a password as an argument is refused and never stored; --help exits 0', async () => {
    const DATABASE_URL = databaseUrl();
    const cli = (args: string[]): Promise<CliResult> => runUsersCli(args, { databaseUrl: DATABASE_URL });

    const noUser = await cli(['add']);
    expectResult(noUser, { code: 2, stdout: '', stderr: /^add needs a user name\.\n\n/ });
    expect(noUser.stderr).toMatch(USAGE);

    const passwordArgument = await cli(['add', 'alice', 'secretpassword']);
    expectResult(passwordArgument, {
      code: 2,
      stdout: '',
      stderr: /^add takes one user name; passwords are never arguments\.\n/,
    });
    expect(passwordArgument.stderr).toMatch(USAGE);
    expect(passwordArgument.stderr).not.toContain('secretpassword');

    const unknown = await cli(['frob']);
    expectResult(unknown, { code: 2, stdout: '', stderr: /^Unknown command: frob\n/ });
    expect(unknown.stderr).toMatch(USAGE);

    const help = await cli(['--help']);
    expectResult(help, { code: 0, stdout: USAGE, stderr: '' });
    expect(help.stdout).toContain('never from the command line');

    const nothing = await cli([]);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout + nothing.stderr).toMatch(USAGE);

    // None of these touched the database: no user exists.
    expectResult(await cli(['list', '--json']), { code: 0, stdout: '[]\n', stderr: '' });
  }, 120_000);

  it('an invalid DATABASE_URL exits 2 naming the variable', async () => {
    const result = await runUsersCli(['list'], { databaseUrl: 'postgres://nowhere/db' });
    expectResult(result, { code: 2, stdout: '', stderr: /^Invalid configuration: DATABASE_URL .+\n$/ });
  }, 60_000);
});

describe('users CLI and service on the same database', () => {
  /** POST a valid event with the credentials: the response (201 or 401). */
  async function create(t: TestApp, username: string, password: string): Promise<request.Response> {
    return request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', basicHeader(username, password))
      .send(validEvent());
  }

  async function expectCreated(t: TestApp, username: string, password: string): Promise<void> {
    const event = validEvent();
    const res = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', basicHeader(username, password))
      .send(event);
    expectStatus(res, 201);
    expect(res.body).toStrictEqual(event);
  }

  async function withApp(env: Record<string, string>, body: (t: TestApp) => Promise<void>): Promise<void> {
    const t = await createTestApp(env);
    try {
      await body(t);
    } finally {
      await t.close();
    }
  }

  it('a user the CLI adds can create events; after passwd only the new password works; after remove (and a restart) 401', async () => {
    const DATABASE_URL = databaseUrl();
    const [first, second] = ['carol-password-1', 'carol-password-2'];
    expect((await runUsersCli(['add', 'carol'], { databaseUrl: DATABASE_URL, stdin: `${first}\n` })).code).toBe(0);

    await withApp({ DATABASE_URL }, (t) => expectCreated(t, 'carol', first));

    expect((await runUsersCli(['passwd', 'carol'], { databaseUrl: DATABASE_URL, stdin: `${second}\n` })).code).toBe(0);
    await withApp({ DATABASE_URL }, async (t) => {
      expectUnauthorized(await create(t, 'carol', first), '/special-events');
      await expectCreated(t, 'carol', second);
    });

    expect((await runUsersCli(['remove', 'carol'], { databaseUrl: DATABASE_URL })).code).toBe(0);
    await withApp({ DATABASE_URL }, async (t) => {
      expectUnauthorized(await create(t, 'carol', second), '/special-events');
      // The service itself is fine: its ADMIN_USERNAME user still creates.
      await expectCreated(t, TEST_USER, TEST_PASSWORD);
    });

    // The service's ADMIN_USERNAME user is in the CLI's list: one database, one set of users.
    const users = JSON.parse((await runUsersCli(['list', '--json'], { databaseUrl: DATABASE_URL })).stdout) as {
      username: string;
    }[];
    expect(users.map((user) => user.username)).toEqual([TEST_USER]);
  }, 180_000);

  it('with AUTH_CACHE_TTL_SECONDS=1 a running service honours CLI changes within ~1.5 s: a removal (401) and an addition (201)', async () => {
    const DATABASE_URL = databaseUrl();
    const password = 'dave-password-1';
    expect((await runUsersCli(['add', 'dave'], { databaseUrl: DATABASE_URL, stdin: `${password}\n` })).code).toBe(0);

    await withApp({ DATABASE_URL, AUTH_CACHE_TTL_SECONDS: '1' }, async (t) => {
      // Verified, and now cached.
      await expectCreated(t, 'dave', password);
      expect((await runUsersCli(['remove', 'dave'], { databaseUrl: DATABASE_URL })).code).toBe(0);
      await sleep(1500);
      expectUnauthorized(await create(t, 'dave', password), '/special-events');

      // Refused (and the refusal cached), then added by the CLI while the service runs.
      const erin = 'erin-password-1';
      expectUnauthorized(await create(t, 'erin', erin), '/special-events');
      expect((await runUsersCli(['add', 'erin'], { databaseUrl: DATABASE_URL, stdin: `${erin}\n` })).code).toBe(0);
      await sleep(1500);
      await expectCreated(t, 'erin', erin);
    });
  }, 180_000);
});

describe('user names are NFC, without invisible characters: in the CLI, at login and for stored names', () => {
  // What the CLI stores, the service finds (the same rules on MariaDB: auth/auth.e2e-spec.ts).
  const db = useTestDatabase();
  const NFC = 'caf\u00e9';
  const NFD = 'cafe\u0301';
  const password = 'cafe-password-12';

  async function login(t: TestApp, username: string, secret = password): Promise<number> {
    const res = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', basicHeader(username, secret))
      .send(validEvent());
    return res.status;
  }

  it('the CLI stores café once whichever way it is typed, refuses look-alikes, and a login in NFD is the NFC user', async () => {
    const cli = (args: string[], stdin?: string): Promise<CliResult> =>
      runUsersCli(args, { databaseUrl: db.url, stdin });
    expectResult(await cli(['add', NFC], `${password}\n`), { code: 0, stdout: /^Added user/, stderr: '' });
    expectResult(await cli(['add', NFD], 'another-password-2\n'), {
      code: 1,
      stdout: '',
      stderr: `User "${NFC}" already exists.\n`,
    });
    expectResult(await cli(['add', 'ad\u200bmin'], 'lookalike-password-1\n'), {
      code: 1,
      stdout: '',
      stderr: /^The user name must not contain spaces, control or format characters/,
    });
    const users = JSON.parse((await cli(['list', '--json'])).stdout) as { username: string }[];
    expect(users.map(({ username }) => username)).toEqual([NFC]);

    const t = await createTestApp({ DATABASE_URL: db.url });
    try {
      // The same rules where the CLI's service is the app's: every look-alike is refused.
      for (const invisible of ['\u00ad', '\u2060', '\u202e']) {
        await expect(t.app.get(UsersService).add(`ad${invisible}min`, 'lookalike-password-1')).rejects.toThrow(
          /must not contain spaces, control or format characters/,
        );
      }
      expect(await login(t, NFC)).toBe(201);
      expect(await login(t, NFD)).toBe(201);
      expect(await login(t, `${NFC}\u200b`)).toBe(401);
      expect(await login(t, `\u2060${NFC}`)).toBe(401);
    } finally {
      await t.close();
    }
  }, 300_000);
});
