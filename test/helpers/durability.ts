import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { startService, useBuiltService, type RunningService } from './built-service.js';
import { CreateLoad, expectStoredMatchesSent, type StoredEvent } from './create-load.js';
import { validEvent } from './problem-assertions.js';
import { basicHeader } from './test-app.js';
import type { TestDatabase, TestDatabaseKind } from './test-database.js';

const USER = 'durability';
const PASSWORD = 'durability-password-1234';
const AUTH = basicHeader(USER, PASSWORD);
const CLIENTS = 16;
const SEED = Number(process.env.DURABILITY_SEED ?? Date.now() % 2 ** 31);

/**
 * Crash consistency after a process kill: the built service under concurrent creates is killed
 * with SIGKILL (no shutdown code runs), restarted on the same database, and the database is read
 * directly with `readEvents` (called after the restart, so SQLite's WAL recovery has run):
 * (a) every acknowledged event is there, intact; (b) every row is exactly a body some client
 * sent, acknowledged or in flight at the kill; (c) the restarted service still knows the
 * acknowledged ids. What it shows is that a 201 goes out only after its commit was handed to the
 * operating system. It cannot show that the commit was flushed to the disk: a killed process
 * leaves the page cache intact, so a commit never fsynced survives it too. That a commit is
 * flushed is shown on SQLite by sqlite-power-loss.e2e-spec.ts (a storage layer that keeps only
 * what was flushed); the settings are read back by durability.e2e-spec.ts.
 */
export function describeDurability(
  kind: TestDatabaseKind,
  readEvents: (database: TestDatabase) => Promise<StoredEvent[]>,
): void {
  describe(`crash consistency on ${kind}: SIGKILL under concurrent creates (not a power cut)`, () => {
    const built = useBuiltService(kind);
    let service: RunningService | undefined;

    const env = () => ({
      DATABASE_URL: built.database.url,
      DB_MIGRATIONS_RUN: 'true',
      ADMIN_USERNAME: USER,
      ADMIN_PASSWORD: PASSWORD,
    });

    it('keeps every create acknowledged before the kill, intact, and nothing that was not sent', async () => {
      process.stdout.write(`[durability ${kind}] seed ${SEED} (DURABILITY_SEED=${SEED} to repeat)\n`);
      service = await startService(built.entry, env(), 60_000);
      // Warm the credential cache so the load is creates, not password hashing.
      const warmUp = validEvent();
      expect(
        (await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(warmUp)).status,
      ).toBe(201);

      const load = new CreateLoad({ baseUrl: service.baseUrl, authorization: AUTH, clients: CLIENTS, seed: SEED });
      load.start();
      // ~1-2 s of load, and at least some acknowledged creates, then SIGKILL mid-load.
      await load.untilAcknowledged(50, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const beforeKill = load.acknowledged().length;
      service.run.kill();
      const status = await service.run.waitForExit(15_000);
      expect(status.signal).toBe('SIGKILL');
      await load.finished();

      const acknowledged = load.acknowledged();
      const inFlight = load.sent.filter((sent) => sent.status === undefined && sent.error !== 'ECONNREFUSED');
      // Every answer the service gave before it died is a 201 (the ids are random and new).
      expect(
        load.sent.filter((sent) => sent.status !== undefined && sent.status !== 201).map((sent) => sent.responseText),
      ).toEqual([]);
      // Requests without an answer failed with the connection: reset by the kill, or refused after it.
      for (const sent of load.sent.filter((s) => s.status === undefined)) {
        expect(['ECONNRESET', 'ECONNREFUSED', 'socket hang up', 'EPIPE']).toContain(sent.error);
      }

      service = await startService(built.entry, env(), 60_000);
      const rows = await readEvents(built.database);
      // The warm-up event is the one row no load client sent.
      const loadRows = rows.filter((row) => row.eventId !== warmUp.eventId);
      expect(rows.length - loadRows.length).toBe(1);
      const storedNotAcknowledged = expectStoredMatchesSent(loadRows, load.sent);
      // A row without a 201 can only be a request that was in flight when the process died.
      for (const sent of storedNotAcknowledged) expect(inFlight).toContain(sent);

      const taken = acknowledged[Math.floor(acknowledged.length / 2)] as (typeof acknowledged)[number];
      expect(
        (await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(taken.body)).status,
      ).toBe(409);
      const fresh = validEvent({ eventId: randomUUID() });
      const created = await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(fresh);
      expect(created.status).toBe(201);
      expect(created.body).toStrictEqual(fresh);

      process.stdout.write(
        `[durability ${kind}] ${load.summary()}; acknowledged ${acknowledged.length} ` +
          `(${beforeKill} when SIGKILL was sent), in flight at the kill ${inFlight.length} ` +
          `(${storedNotAcknowledged.length} of them committed), rows ${loadRows.length}, lost 0\n`,
      );
      expect(await service.stop('SIGTERM')).toBe(0);
    }, 180_000);
  });
}
