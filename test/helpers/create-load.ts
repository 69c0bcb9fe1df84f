import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import type { SpecialEvent } from '../../client/index.js';

/**
 * A create body as the load clients send it (client-chosen eventId, varied Unicode content):
 * every field given, so the shape of an event as the API answers it (the generated client's).
 */
export type EventBody = SpecialEvent;

/** An event as read back from the database, eventId lowercase. */
export type StoredEvent = EventBody;

/** One create request and what became of it. */
export interface SentCreate {
  readonly client: number;
  readonly body: EventBody;
  /** Sent as X-Request-Id: the service logs it on the line it writes for the request. */
  readonly requestId: string;
  readonly startedAt: number;
  /** The request went out on a kept-alive connection that had already carried a request. */
  reusedSocket: boolean;
  /** Every byte of the request was handed to the kernel (the request's 'finish'). */
  written: boolean;
  /** The status line of the response arrived. */
  status?: number;
  responseText?: string;
  /** The socket error code when no complete response arrived (ECONNRESET, ECONNREFUSED, ...). */
  error?: string;
  settledAt?: number;
}

/** A small seeded PRNG (mulberry32): a failing run is reproducible from the printed seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  'Night at the museum 🦕',
  'Nuit au musée',
  'ليلة في المتحف', // right-to-left
  'Cafe\u0301 con\u0303 leche', // combining marks
  '👩‍👩‍👧 family morning', // ZWJ sequence
  '日本語の夕べ',
  '𝔊𝔬𝔱𝔥𝔦𝔠 𝔪𝔞𝔫𝔲𝔰𝔠𝔯𝔦𝔭𝔱𝔰', // astral plane
  'Ελληνικά αγγεία',
  'שבת במוזיאון',
  'Tab\tand "quotes" and \\ backslash',
];
const LOCATIONS = ['Hall 1 🦕', 'Salle Æ', 'القاعة الكبرى', 'Garden · north', '東館 2F', 'Room "B"'];
const DATES = ['2026-12-01', '2026-12-02', '2027-01-01T18:00+01:00', 'every Sunday, 10:00', 'بعد الظهر', '🗓 TBA'];
/** Prices that must come back bit for bit (a float column or a decimal rounding would change them). */
const PRICES = [0, 0.01, 0.1, 12.5, 19.99, 1 / 3, 0.30000000000000004, 123456.789, 999999999.99, 1_000_000_000];

/** A valid create body with content chosen by `random`: every field varies, Unicode included. */
export function randomEvent(random: () => number, serial: number): EventBody {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const dateCount = Math.floor(random() * 5);
  const descriptionRepeat = 1 + Math.floor(random() * 60);
  const uuid = randomUUID();
  return {
    // Any letter case is accepted; it is stored lowercase.
    eventId: random() < 0.25 ? uuid.toUpperCase() : uuid,
    name: `${pick(NAMES)} #${serial}`,
    location: pick(LOCATIONS),
    eventDescription: `${pick(NAMES)} `.repeat(descriptionRepeat).trim().slice(0, 4_000),
    dates: Array.from({ length: dateCount }, () => pick(DATES)),
    price: random() < 0.5 ? pick(PRICES) : Math.round(random() * 100_000) / 100,
  };
}

/** What a stored row must equal: the sent body, eventId lowercase. */
export function expectedRow(body: EventBody): StoredEvent {
  return { ...body, eventId: body.eventId.toLowerCase() };
}

export interface CreateLoadOptions {
  readonly baseUrl: string;
  readonly authorization: string;
  readonly clients: number;
  readonly seed: number;
  /** Per-request bound: a request with no answer after this long is recorded as 'TIMEOUT'. */
  readonly requestTimeoutMs?: number;
  /**
   * Clients with an odd index send each body in two parts, this many milliseconds apart (a
   * slow upload): their requests are in progress on the server, headers read and body not yet,
   * for that long. Default 0: bodies go out at once.
   */
  readonly slowBodyMs?: number;
}

/**
 * `clients` concurrent clients, each with its own keep-alive connection (an Agent with one
 * socket), each sending creates one after the other until `stop()` or until a connection is
 * refused (the service is gone or no longer accepts connections). Every request is recorded
 * with its body and outcome.
 */
export class CreateLoad {
  readonly sent: SentCreate[] = [];
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly agents: Agent[] = [];
  private serial = 0;

  constructor(private readonly options: CreateLoadOptions) {}

  start(): void {
    for (let client = 0; client < this.options.clients; client += 1) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      this.agents.push(agent);
      this.loops.push(this.loop(client, agent, seededRandom(this.options.seed + client)));
    }
  }

  /** Resolves once every client has stopped (its last request settled). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.finished();
  }

  /** Resolves once every client has stopped by itself (connection refused) or after stop(). */
  async finished(): Promise<void> {
    await Promise.all(this.loops);
    for (const agent of this.agents) agent.destroy();
  }

  /** Waits until `count` requests have been answered 201. */
  async untilAcknowledged(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.acknowledged().length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `only ${this.acknowledged().length} creates acknowledged within ${timeoutMs} ms; ${this.summary()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  acknowledged(): SentCreate[] {
    return this.sent.filter((request) => request.status === 201);
  }

  summary(): string {
    const counts = new Map<string, number>();
    for (const request of this.sent) {
      const key = request.status !== undefined ? String(request.status) : (request.error ?? 'pending');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return `${this.sent.length} sent: ${[...counts].map(([key, count]) => `${key}=${count}`).join(', ')}`;
  }

  private async loop(client: number, agent: Agent, random: () => number): Promise<void> {
    while (!this.stopping) {
      const record: SentCreate = {
        client,
        body: randomEvent(random, (this.serial += 1)),
        requestId: `load-${client}-${randomUUID()}`,
        startedAt: Date.now(),
        reusedSocket: false,
        written: false,
      };
      this.sent.push(record);
      await this.send(agent, record);
      if (record.error === 'ECONNREFUSED') return;
    }
  }

  private send(agent: Agent, record: SentCreate): Promise<void> {
    const url = new URL('/special-events', this.options.baseUrl);
    const payload = Buffer.from(JSON.stringify(record.body), 'utf8');
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: { status?: number; text?: string; error?: string }): void => {
        if (settled) return;
        settled = true;
        if (outcome.status !== undefined) record.status = outcome.status;
        if (outcome.text !== undefined) record.responseText = outcome.text;
        if (outcome.error !== undefined) record.error = outcome.error;
        record.settledAt = Date.now();
        resolve();
      };
      const req = httpRequest(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            Authorization: this.options.authorization,
            'Content-Type': 'application/json',
            'Content-Length': payload.length,
            'X-Request-Id': record.requestId,
          },
          timeout: this.options.requestTimeoutMs ?? 30_000,
        },
        (res) => {
          // The status line arrived: the server processed the request. A body cut short is an
          // error of its own, kept with the status.
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => settle({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (error: NodeJS.ErrnoException) =>
            settle({ status: res.statusCode, error: `BODY_${error.code ?? error.message}` }),
          );
          res.on('aborted', () => settle({ status: res.statusCode, error: 'BODY_ABORTED' }));
        },
      );
      req.on('socket', () => {
        record.reusedSocket = req.reusedSocket;
      });
      req.on('finish', () => {
        record.written = true;
      });
      req.on('timeout', () => {
        settle({ error: 'TIMEOUT' });
        req.destroy();
      });
      req.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
      const pause = record.client % 2 === 1 ? (this.options.slowBodyMs ?? 0) : 0;
      if (pause === 0) {
        req.end(payload);
        return;
      }
      const half = Math.floor(payload.length / 2);
      req.write(payload.subarray(0, half));
      req.flushHeaders();
      setTimeout(() => {
        if (!settled) req.end(payload.subarray(half));
      }, pause);
    });
  }
}

/**
 * (a) every acknowledged create is stored, identical field by field; (b) every stored row is
 * the body of a request that was sent (acknowledged or not), identical to it: no unknown row, no
 * half-written one. Returns the ids of the stored rows whose request got no 201.
 */
export function expectStoredMatchesSent(rows: readonly StoredEvent[], sent: readonly SentCreate[]): SentCreate[] {
  const byId = new Map(sent.map((request) => [request.body.eventId.toLowerCase(), request]));
  const stored = new Map(rows.map((row) => [row.eventId, row]));
  const acknowledged = sent.filter((request) => request.status === 201);
  const missing = acknowledged.filter((request) => !stored.has(request.body.eventId.toLowerCase()));
  expect(
    missing.map((request) => request.body.eventId),
    'acknowledged creates missing from the database',
  ).toEqual([]);
  for (const request of acknowledged) {
    const row = stored.get(request.body.eventId.toLowerCase());
    expect(row, `stored row of acknowledged ${request.body.eventId}`).toStrictEqual(expectedRow(request.body));
    // The 201 body is what was stored too.
    expect(JSON.parse(request.responseText ?? 'null')).toStrictEqual(expectedRow(request.body));
  }
  const unknown = rows.filter((row) => !byId.has(row.eventId));
  expect(unknown, 'rows that no request sent').toEqual([]);
  const unacknowledgedButStored: SentCreate[] = [];
  for (const row of rows) {
    const request = byId.get(row.eventId) as SentCreate;
    expect(row, `stored row ${row.eventId} equals what was sent`).toStrictEqual(expectedRow(request.body));
    if (request.status !== 201) unacknowledgedButStored.push(request);
  }
  return unacknowledgedButStored;
}

/**
 * special_events rows (snake_case columns) as StoredEvents. dates is JSON text from SQLite and
 * MariaDB (whose JSON is LONGTEXT); mysql2 hands a MySQL JSON column over already parsed.
 */
export function rowToEvent(row: Record<string, unknown>): StoredEvent {
  return {
    eventId: row.event_id as string,
    name: row.name as string,
    location: row.location as string,
    eventDescription: row.event_description as string,
    dates: (typeof row.dates === 'string' ? JSON.parse(row.dates) : row.dates) as string[],
    price: row.price as number,
  };
}
