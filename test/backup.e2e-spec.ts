import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { expectStatus, validEvent } from './helpers/problem-assertions.js';
import { childEnv, ROOT } from './helpers/service-process.js';
import { AUTH, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * docs/operations.md's backup and restore, as an operator runs them: `npm run backup -- <file>`
 * on the running service's SQLite file while clients keep creating events, then the restore (the
 * copy put in place of a new service's database file) and that service started on it. Every event
 * whose 201 arrived before the backup began must be there.
 */

const dir = mkdtempSync(join(tmpdir(), 'museum-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function backup(databaseUrl: string, file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '-s', 'backup', '--', file],
      { cwd: ROOT, env: childEnv({ DATABASE_URL: databaseUrl }), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run backup -- <file>, while the service takes writes, and the restore', () => {
  const live = join(dir, 'live.sqlite');
  const restored = join(dir, 'restored', 'events.sqlite');
  let service: TestApp | undefined;
  afterAll(async () => service?.close());

  it('holds every event acknowledged before it began, the WAL included', async () => {
    service = await createTestApp({ DATABASE_URL: `sqlite:${live}` });
    const baseUrl = service.baseUrl;
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (): Promise<void> => {
      while (writing) {
        const event = validEvent();
        const res = await request(baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
        expectStatus(res, 201);
        acknowledged.push(event.eventId as string);
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = [...acknowledged];
    // The commits are in the write-ahead log, not yet in the database file: a copy of the file
    // alone would miss them.
    expect(statSync(`${live}-wal`).size).toBeGreaterThan(0);
    const file = join(dir, 'backup.sqlite');
    const result = await backup(`sqlite:${live}`, file);
    const duringOrAfter = acknowledged.length - before.length;
    writing = false;
    await Promise.all(writers);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Backed up .* pages/) });
    // Writes went on while the backup ran: it copied a database being written.
    expect(duringOrAfter).toBeGreaterThan(0);
    await service.close();
    service = undefined;

    // The restore, as docs/operations.md gives it: the backup becomes the database file (with no
    // -wal or -shm beside it), and the service starts on it.
    mkdirSync(join(dir, 'restored'));
    copyFileSync(file, restored);
    expect(existsSync(`${restored}-wal`)).toBe(false);
    service = await createTestApp({ DATABASE_URL: `sqlite:${restored}` });
    const missing: string[] = [];
    for (const eventId of before) {
      const res = await request(service.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
      if (res.status !== 200) missing.push(`${eventId}: ${res.status}`);
    }
    expect(missing).toEqual([]);
  });

  it('refuses to overwrite a file, and names the tools for MySQL', async () => {
    const existing = join(dir, 'existing.sqlite');
    copyFileSync(live, existing);
    const size = statSync(existing).size;
    const refused = await backup(`sqlite:${live}`, existing);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/exists: a backup never overwrites a file/);
    expect(statSync(existing).size).toBe(size);
    const mysql = await backup('mysql://root@127.0.0.1:3306/museum', join(dir, 'mysql.sql'));
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toMatch(/mysqldump --single-transaction or mariabackup/);
  });
});
