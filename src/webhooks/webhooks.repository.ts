import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { columnOf, type RowOf, selectList, tableOf } from '../database/entity-columns.js';
import { limitPlaceholder } from '../database/sql-limit.js';
import { Sql } from '../database/sql.js';
import { placeholders } from '../database/sql-placeholders.js';
import type { EventChange, SqlStatement } from '../special-events/event-write-participants.js';
import { toResponse } from '../special-events/special-events.responses.js';
import { WebhookSubscription } from './webhook-subscription.entity.js';

/** How long a claimed delivery is an instance's alone: longer than a delivery can take. */
export const LEASE_MS = 30_000;

/** What a change is called in the `museum-event-type` header. */
export const EVENT_TYPES = {
  created: 'special-event.created',
  updated: 'special-event.updated',
  deleted: 'special-event.deleted',
} as const;

/**
 * One row per enabled subscriber, written by the statement that the event's own transaction runs
 * (EventWriteParticipants): the delivery exists if and only if the write was committed.
 */
const ENQUEUE_INTO =
  'INSERT INTO webhook_deliveries (message_id, webhook_id, event_id, kind, payload, created_at, next_attempt_at) ';
const ENQUEUE_SELECT = 'SELECT ?, webhook_id, ?, ?, ?, ?, ? FROM webhook_subscriptions WHERE enabled = 1';
const ENQUEUE_SQL = ENQUEUE_INTO + ENQUEUE_SELECT;

/**
 * Message ids: this process's random prefix (64 bits, so instances never collide) and a counter.
 * A UUID per change cost a random draw each, a visible share of a create's CPU.
 */
const MESSAGE_ID_PREFIX = `msg_${randomBytes(8).toString('hex')}`;
let messageCount = 0;

/**
 * The outbox statement for one change of a special event. The body is the event exactly as GET
 * returns it (the Museum API's SpecialEvent); a delete sends `{"eventId": …}`.
 */
export function enqueueStatement(change: EventChange, now = Date.now()): SqlStatement {
  const messageId = `${MESSAGE_ID_PREFIX}${(messageCount++).toString(36)}`;
  const eventId = change.kind === 'deleted' ? change.eventId : change.event.eventId;
  const payload = JSON.stringify(change.kind === 'deleted' ? { eventId } : toResponse(change.event));
  return { sql: ENQUEUE_SQL, parameters: [messageId, eventId, change.kind, payload, now, now] };
}

/**
 * The outbox statement for several changes to distinct events (a batch of creates or deletes in
 * one transaction): the rows enqueueStatement would write for each, in one INSERT (a UNION ALL of
 * its SELECT per change, in the changes' order).
 */
export function enqueueAllStatement(changes: readonly EventChange[], now = Date.now()): SqlStatement {
  const parameters = changes.flatMap((change) => enqueueStatement(change, now).parameters);
  return {
    sql: ENQUEUE_INTO + Array.from({ length: changes.length }, () => ENQUEUE_SELECT).join(' UNION ALL '),
    parameters,
  };
}

/** A delivery claimed by this instance, with what sending it needs. */
export interface ClaimedDelivery {
  readonly deliveryId: number;
  readonly messageId: string;
  readonly webhookId: string;
  readonly kind: keyof typeof EVENT_TYPES;
  readonly payload: string;
  readonly firstFailedAt: number | null;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  readonly leaseOwner: string;
}

/**
 * The deliveries that may be sent now: due, not leased, to an enabled subscriber that is not
 * among the `excluded` (those already sending as much as they may), and the oldest pending one of
 * their event for that subscriber (so an update never overtakes its create).
 */
const candidatesSql = (limit: string, excluded: number): string =>
  'SELECT d.delivery_id AS id, d.webhook_id FROM webhook_deliveries d ' +
  'JOIN webhook_subscriptions s ON s.webhook_id = d.webhook_id ' +
  'WHERE d.next_attempt_at <= ? AND d.lease_until <= ? AND s.enabled = 1 ' +
  (excluded === 0 ? '' : `AND d.webhook_id NOT IN (${placeholders(excluded)}) `) +
  'AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p ' +
  'WHERE p.webhook_id = d.webhook_id AND p.event_id = d.event_id AND p.delivery_id < d.delivery_id) ' +
  `ORDER BY d.next_attempt_at, d.delivery_id LIMIT ${limit}`;

/** The rows of `ids` this claim won: by primary key, so its cost does not grow with the backlog. */
const claimedSql = (count: number): string =>
  'SELECT d.delivery_id, d.message_id, d.webhook_id, d.kind, d.payload, d.attempts, d.first_failed_at, s.url, s.secret ' +
  'FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.webhook_id = d.webhook_id ' +
  `WHERE d.delivery_id IN (${placeholders(count)}) AND d.lease_owner = ? ORDER BY d.delivery_id`;

interface ClaimedRow {
  delivery_id: number | string;
  message_id: string;
  webhook_id: string;
  kind: keyof typeof EVENT_TYPES;
  payload: string;
  attempts: number | string;
  first_failed_at: number | string | null;
  url: string;
  secret: string;
}

/** The outbox's own statements: claims with a lease in the database, and each attempt's outcome. */
@Injectable()
export class WebhookOutbox {
  constructor(private readonly sql: Sql) {}

  /**
   * Claims up to `limit` deliveries for this instance, at most `roomOf(webhookId)` of each
   * subscriber's (a subscriber with none left is not even read, so a slow one's backlog never
   * fills a claim). A conditional UPDATE takes only rows whose lease has run out, so of instances
   * racing for a row exactly one gets it (on Galera the other node's commit fails certification,
   * which is taken as "not claimed"). `more` says whether due deliveries may have been left.
   */
  async claim(
    limit: number,
    roomOf: (webhookId: string) => number,
    full: readonly string[] = [],
    now = Date.now(),
  ): Promise<{ claimed: ClaimedDelivery[]; more: boolean }> {
    const candidates = await this.sql.select<{ id: number | string; webhook_id: string }>(
      candidatesSql(limitPlaceholder(this.sql.isMysql ? 'mysql' : 'sqlite'), full.length),
      [now, now, ...full, limit],
    );
    const taken = new Map<string, number>();
    const ids: number[] = [];
    for (const { id, webhook_id: webhookId } of candidates) {
      const count = taken.get(webhookId) ?? 0;
      if (count >= roomOf(webhookId)) continue;
      taken.set(webhookId, count + 1);
      ids.push(Number(id));
    }
    const more = candidates.length === limit;
    if (ids.length === 0) return { claimed: [], more };
    const owner = randomUUID();
    const claimed = await this.sql.execute(
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE delivery_id IN (${placeholders(ids.length)}) AND lease_until <= ?`,
      [owner, now + LEASE_MS, ...ids, now],
    );
    if (claimed === 0) return { claimed: [], more };
    const rows = await this.sql.select<ClaimedRow>(claimedSql(ids.length), [...ids, owner]);
    const deliveries = rows.map((row) => ({
      deliveryId: Number(row.delivery_id),
      messageId: row.message_id,
      webhookId: row.webhook_id,
      kind: row.kind,
      payload: row.payload,
      attempts: Number(row.attempts),
      firstFailedAt: row.first_failed_at === null ? null : Number(row.first_failed_at),
      url: row.url,
      secret: row.secret,
      leaseOwner: owner,
    }));
    return { claimed: deliveries, more };
  }

  /** The receiver acknowledged it: the delivery is done. */
  async delivered(delivery: ClaimedDelivery): Promise<void> {
    await this.sql.execute('DELETE FROM webhook_deliveries WHERE delivery_id = ? AND lease_owner = ?', [
      delivery.deliveryId,
      delivery.leaseOwner,
    ]);
  }

  /** Another attempt at `nextAttemptAt`; the first failure's time is kept (it bounds the retries). */
  async failed(delivery: ClaimedDelivery, now: number, nextAttemptAt: number): Promise<void> {
    await this.sql.execute(
      'UPDATE webhook_deliveries SET attempts = attempts + 1, first_failed_at = COALESCE(first_failed_at, ?), ' +
        'next_attempt_at = ?, lease_owner = NULL, lease_until = 0 WHERE delivery_id = ? AND lease_owner = ?',
      [now, nextAttemptAt, delivery.deliveryId, delivery.leaseOwner],
    );
  }

  /** Gives the delivery back untried (this instance is stopping). */
  async release(delivery: ClaimedDelivery): Promise<void> {
    await this.sql.execute(
      'UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = 0 WHERE delivery_id = ? AND lease_owner = ?',
      [delivery.deliveryId, delivery.leaseOwner],
    );
  }

  async recordSuccess(webhookId: string, now: number): Promise<void> {
    await this.sql.execute('UPDATE webhook_subscriptions SET last_success_at = ? WHERE webhook_id = ?', [
      now,
      webhookId,
    ]);
  }

  async recordFailure(webhookId: string, now: number, reason: string): Promise<void> {
    await this.sql.execute(
      'UPDATE webhook_subscriptions SET last_failure_at = ?, last_failure_reason = ? WHERE webhook_id = ?',
      [now, reason.slice(0, 600), webhookId],
    );
  }

  /** Stops deliveries to a subscriber; its pending ones are kept for when it is enabled again. */
  async disable(webhookId: string, reason: string): Promise<void> {
    await this.sql.execute(
      'UPDATE webhook_subscriptions SET enabled = 0, disabled_reason = ? WHERE webhook_id = ? AND enabled = 1',
      [reason.slice(0, 600), webhookId],
    );
  }

  /** The pending deliveries, and the creation time of the oldest (ms), for the metrics. */
  async backlog(): Promise<{ pending: number; oldestCreatedAt: number | null }> {
    const [row] = await this.sql.select<{ pending: number | string; oldest: number | string | null }>(
      'SELECT COUNT(*) AS pending, MIN(created_at) AS oldest FROM webhook_deliveries',
    );
    return {
      pending: Number(row?.pending ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    };
  }
}

const SUBSCRIPTIONS = tableOf(WebhookSubscription);
const SELECT_SUBSCRIPTION = `SELECT ${selectList(WebhookSubscription)} FROM ${SUBSCRIPTIONS}`;
const LIST_SUBSCRIPTIONS = `${SELECT_SUBSCRIPTION} ORDER BY ${columnOf(WebhookSubscription, 'createdAt')}, ${columnOf(WebhookSubscription, 'webhookId')}`;
const SUBSCRIPTION_BY_ID = `${SELECT_SUBSCRIPTION} WHERE ${columnOf(WebhookSubscription, 'webhookId')} = ?`;

/** What a subscribe stores; the rest starts as the entity's defaults (enabled, no delivery yet). */
export type NewSubscription = Pick<WebhookSubscription, 'webhookId' | 'url' | 'description' | 'secret' | 'createdAt'>;

const NEW_SUBSCRIPTION_COLUMNS = [
  'webhookId',
  'url',
  'description',
  'secret',
  'createdAt',
] as const satisfies readonly (keyof NewSubscription)[];

/**
 * One subscription more, only while there are fewer than the limit: the count and the insert are
 * one statement, so the database decides (SQLite runs one write at a time; InnoDB's INSERT …
 * SELECT reads the counted rows with shared locks, so of two racing inserts one waits or
 * deadlocks and is run again, and then counts the other).
 */
const INSERT_BELOW_LIMIT =
  `INSERT INTO ${SUBSCRIPTIONS} (${NEW_SUBSCRIPTION_COLUMNS.map((property) => columnOf(WebhookSubscription, property)).join(', ')}) ` +
  `SELECT ${NEW_SUBSCRIPTION_COLUMNS.map(() => '?').join(', ')} FROM (SELECT COUNT(*) AS n FROM ${SUBSCRIPTIONS}) c WHERE c.n < ?`;

const epochOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toSubscription(row: RowOf<WebhookSubscription>): WebhookSubscription {
  return {
    ...row,
    createdAt: Number(row.createdAt),
    enabled: Number(row.enabled) === 1,
    lastSuccessAt: epochOrNull(row.lastSuccessAt),
    lastFailureAt: epochOrNull(row.lastFailureAt),
  };
}

/** The subscribers, as admins make, list, remove and re-enable them. */
@Injectable()
export class WebhookSubscriptions {
  constructor(private readonly sql: Sql) {}

  /** Stores the subscription while there are fewer than `max`; false when there are not. */
  async insertBelowLimit(subscription: NewSubscription, max: number): Promise<boolean> {
    const parameters = [...NEW_SUBSCRIPTION_COLUMNS.map((property) => subscription[property]), max];
    return (await this.sql.transactionIf({ sql: INSERT_BELOW_LIMIT, parameters }, [])) !== null;
  }

  /** Every subscription, oldest first. */
  async list(): Promise<WebhookSubscription[]> {
    return (await this.sql.select<RowOf<WebhookSubscription>>(LIST_SUBSCRIPTIONS)).map(toSubscription);
  }

  async byId(webhookId: string): Promise<WebhookSubscription | null> {
    const [row] = await this.sql.select<RowOf<WebhookSubscription>>(SUBSCRIPTION_BY_ID, [webhookId]);
    return row === undefined ? null : toSubscription(row);
  }

  /** The deliveries still pending, per subscription (those with none are absent). */
  async pendingDeliveries(): Promise<Map<string, number>> {
    const rows = await this.sql.select<{ webhook_id: string; pending: number | string }>(
      'SELECT webhook_id, COUNT(*) AS pending FROM webhook_deliveries GROUP BY webhook_id',
    );
    return new Map(rows.map((row) => [row.webhook_id, Number(row.pending)]));
  }

  async pendingDeliveriesOf(webhookId: string): Promise<number> {
    const [row] = await this.sql.select<{ pending: number | string }>(
      'SELECT COUNT(*) AS pending FROM webhook_deliveries WHERE webhook_id = ?',
      [webhookId],
    );
    return Number(row?.pending ?? 0);
  }

  /** Removes the subscription and whatever was still to be delivered to it; false when there was none. */
  async delete(webhookId: string): Promise<boolean> {
    const [, removed] = await this.sql.transaction([
      { sql: 'DELETE FROM webhook_deliveries WHERE webhook_id = ?', parameters: [webhookId] },
      { sql: 'DELETE FROM webhook_subscriptions WHERE webhook_id = ?', parameters: [webhookId] },
    ]);
    return removed > 0;
  }

  /** Enables the subscription; its pending deliveries are due at `now`, their retry period afresh. */
  async enable(webhookId: string, now: number): Promise<void> {
    await this.sql.transaction([
      {
        sql: 'UPDATE webhook_deliveries SET attempts = 0, first_failed_at = NULL, next_attempt_at = ? WHERE webhook_id = ?',
        parameters: [now, webhookId],
      },
      {
        sql: 'UPDATE webhook_subscriptions SET enabled = 1, disabled_reason = NULL WHERE webhook_id = ?',
        parameters: [webhookId],
      },
    ]);
  }
}
