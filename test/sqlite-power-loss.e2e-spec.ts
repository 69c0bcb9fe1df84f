import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, useBuiltService } from './helpers/built-service.js';
import { validEvent } from './helpers/problem-assertions.js';
import { basicHeader } from './helpers/test-app.js';

const USER = 'power';
const PASSWORD = 'power-loss-password-1234';
const AUTH = basicHeader(USER, PASSWORD);
const CLIENTS = 8;
const ACKNOWLEDGED_BEFORE_CUT = 60;
const SHIM_SOURCE = fileURLToPath(new URL('./fixtures/synced-only.c', import.meta.url));
const HAVE_CC = existsSync('/usr/bin/cc');

/**
 * A power cut on SQLite: the service runs on a storage layer that keeps only what was flushed
 * (test/fixtures/synced-only.c, preloaded: each fsync copies the file as the disk would then hold
 * it). The service is killed under concurrent creates, every database file is put back as of its
 * last flush (a file never flushed is emptied), and every create answered 201 must still be there.
 * A kill alone cannot show this (the page cache keeps what was never flushed): a service that
 * acknowledges a commit before its fsync passes that test and fails this one, whatever its pragmas
 * read. Needs a C compiler (/usr/bin/cc) for the layer.
 */
describe.skipIf(!HAVE_CC)('SQLite power cut: only what was flushed survives, and that is every 201', () => {
  const built = useBuiltService('sqlite');
  let dir = '';
  let shim = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'power-loss-'));
    shim = join(dir, 'synced-only.so');
    execFileSync('/usr/bin/cc', ['-shared', '-fPIC', '-O2', '-o', shim, SHIM_SOURCE, '-ldl']);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Puts every file of the database back as of its last flush; the shared-memory index goes. */
  function cutPower(dataDir: string): void {
    for (const name of readdirSync(dataDir)) {
      const path = join(dataDir, name);
      if (name.endsWith('.synced') || name.endsWith('.synced-new')) continue;
      if (name.endsWith('-shm')) rmSync(path);
      else if (existsSync(`${path}.synced`)) renameSync(`${path}.synced`, path);
      else truncateSync(path, 0);
    }
    for (const name of readdirSync(dataDir)) if (name.includes('.synced')) rmSync(join(dataDir, name));
  }

  it('keeps every create acknowledged before the cut', async () => {
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const file = join(dataDir, 'museum.sqlite');
    const service = await startService(
      built.entry,
      {
        DATABASE_URL: `sqlite:${file}`,
        DB_MIGRATIONS_RUN: 'true',
        ADMIN_USERNAME: USER,
        ADMIN_PASSWORD: PASSWORD,
        LD_PRELOAD: shim,
        SYNCED_ONLY_DIR: dataDir,
      },
      60_000,
    );
    const acknowledged: string[] = [];
    let cut = false;
    const client = async (): Promise<void> => {
      while (!cut) {
        const event = validEvent();
        const res = await request(service.baseUrl)
          .post('/special-events')
          .set('Authorization', AUTH)
          .send(event)
          .catch(() => undefined);
        if (res?.status === 201) acknowledged.push(String(event.eventId));
        if (acknowledged.length >= ACKNOWLEDGED_BEFORE_CUT && !cut) {
          cut = true;
          service.run.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect((await service.run.waitForExit(15_000)).signal).toBe('SIGKILL');
    // The layer saw the commits' flushes of the write-ahead log.
    expect(existsSync(`${file}-wal.synced`)).toBe(true);

    cutPower(dataDir);
    const db = new Database(file);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Set(
        (db.prepare('SELECT event_id FROM special_events').all() as { event_id: string }[]).map((row) => row.event_id),
      );
      const lost = acknowledged.filter((eventId) => !stored.has(eventId));
      expect({ acknowledged: acknowledged.length, lost }).toEqual({ acknowledged: acknowledged.length, lost: [] });
    } finally {
      db.close();
    }
  }, 180_000);
});
