import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildService, startService, type RunningService } from '../helpers/built-service.js';
import { CreateLoad, expectStoredMatchesSent, type StoredEvent } from '../helpers/create-load.js';
import { validEvent } from '../helpers/problem-assertions.js';
import { killLeftovers } from '../helpers/service-process.js';
import { basicHeader } from '../helpers/test-app.js';
import { createTestDatabase, MYSQL_TEST_URL, type TestDatabase } from '../helpers/test-database.js';

/**
 * Durability (issue 5, item 2) on MySQL: the built service under concurrent creates is killed
 * with SIGKILL, restarted on the same database, and the table is read directly. A 201 goes out
 * only after InnoDB's commit; transactions of the killed process that had not committed are
 * rolled back by the server when its connections drop. So every acknowledged event must be
 * there, intact, and every row must be exactly a body some client sent; nothing else.
 */

const USER = 'durability';
const PASSWORD = 'durability-password-1234';
const AUTH = basicHeader(USER, PASSWORD);
const CLIENTS = 16;
const SEED = Number(process.env.DURABILITY_SEED ?? Date.now() % 2 ** 31);

async function readEvents(databaseName: string): Promise<StoredEvent[]> {
  const connection = await createConnection({ uri: `${MYSQL_TEST_URL}/${databaseName}`, charset: 'utf8mb4' });
  try {
    const [rows] = await connection.query(
      'SELECT event_id, name, location, event_description, dates, price FROM special_events',
    );
    return (rows as Record<string, unknown>[]).map((row) => ({
      eventId: row.event_id as string,
      name: row.name as string,
      location: row.location as string,
      eventDescription: row.event_description as string,
      // MySQL's JSON type comes back parsed; MariaDB's JSON is LONGTEXT and comes back as text.
      dates: (typeof row.dates === 'string' ? JSON.parse(row.dates) : row.dates) as string[],
      price: row.price as number,
    }));
  } finally {
    await connection.end();
  }
}

describe('durability on MySQL: SIGKILL under concurrent creates', () => {
  let database: TestDatabase;
  let entry: string;
  let service: RunningService | undefined;

  beforeAll(async () => {
    entry = buildService('durability-mysql');
    database = await createTestDatabase('mysql');
  }, 120_000);

  afterEach(() => killLeftovers());

  afterAll(async () => {
    killLeftovers();
    await database?.drop();
  });

  const env = () => ({
    DATABASE_URL: database.url,
    DB_MIGRATIONS_RUN: 'true',
    ADMIN_USERNAME: USER,
    ADMIN_PASSWORD: PASSWORD,
  });

  it('keeps every acknowledged create, intact, and nothing that was not sent', async () => {
    process.stdout.write(`[durability mysql] seed ${SEED} (DURABILITY_SEED=${SEED} to repeat)\n`);
    service = await startService(entry, env(), 60_000);
    const warmUp = validEvent();
    expect(
      (await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(warmUp)).status,
    ).toBe(201);

    const load = new CreateLoad({ baseUrl: service.baseUrl, authorization: AUTH, clients: CLIENTS, seed: SEED });
    load.start();
    await load.untilAcknowledged(50, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const beforeKill = load.acknowledged().length;
    service.run.kill();
    const status = await service.run.waitForExit(15_000);
    expect(status.signal).toBe('SIGKILL');
    await load.finished();

    const acknowledged = load.acknowledged();
    const inFlight = load.sent.filter((sent) => sent.status === undefined && sent.error !== 'ECONNREFUSED');
    expect(
      load.sent.filter((sent) => sent.status !== undefined && sent.status !== 201).map((sent) => sent.responseText),
    ).toEqual([]);
    for (const sent of load.sent.filter((s) => s.status === undefined)) {
      expect(['ECONNRESET', 'ECONNREFUSED', 'socket hang up', 'EPIPE']).toContain(sent.error);
    }

    service = await startService(entry, env(), 60_000);

    const rows = await readEvents(database.name as string);
    const loadRows = rows.filter((row) => row.eventId !== warmUp.eventId);
    expect(rows.length - loadRows.length).toBe(1);
    const storedNotAcknowledged = expectStoredMatchesSent(loadRows, load.sent);
    for (const sent of storedNotAcknowledged) expect(inFlight).toContain(sent);

    const taken = acknowledged[Math.floor(acknowledged.length / 2)] as (typeof acknowledged)[number];
    const conflict = await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(taken.body);
    expect(conflict.status).toBe(409);
    const fresh = validEvent({ eventId: randomUUID() });
    const created = await request(service.baseUrl).post('/special-events').set('Authorization', AUTH).send(fresh);
    expect(created.status).toBe(201);
    expect(created.body).toStrictEqual(fresh);

    process.stdout.write(
      `[durability mysql] ${load.summary()}; acknowledged ${acknowledged.length} ` +
        `(${beforeKill} when SIGKILL was sent), in flight at the kill ${inFlight.length} ` +
        `(${storedNotAcknowledged.length} of them committed), rows ${loadRows.length}, lost 0\n`,
    );
    expect(await service.stop('SIGTERM')).toBe(0);
  }, 180_000);
});
