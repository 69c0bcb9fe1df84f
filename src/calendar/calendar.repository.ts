import { Injectable } from '@nestjs/common';
import { Sql } from '../database/sql.js';
import { placeholders } from '../database/sql-placeholders.js';
import type { EventChange, SqlStatement } from '../special-events/event-write-participants.js';

/** What the stamps add up to: any create, update or delete of an event changes it. */
export interface StampsVersion {
  readonly count: number;
  /** The latest stamp (epoch ms), 0 without any. */
  readonly latest: number;
  /** The stamps' sum, each taken modulo 2^31 - 1 so that the sum stays exact in a double. */
  readonly sum: string;
}

/**
 * When each event's current version was written (epoch ms), in the calendar module's own table
 * `calendar_event_stamps`: special events keep no such time, and the feed's LAST-MODIFIED and
 * DTSTAMP need it. The row is written in the same transaction as the event's create, update or
 * delete (EventWriteParticipants), so a stamp never disagrees with the event it stamps.
 */
@Injectable()
export class CalendarEventStamps {
  constructor(private readonly sql: Sql) {}

  /**
   * The statements for one change. The time is taken here, once: on SQLite a batch may run twice
   * (its first attempt undone), and must then write the same row.
   */
  statementsFor(change: EventChange): readonly SqlStatement[] {
    if (change.kind === 'deleted') {
      return [{ sql: 'DELETE FROM calendar_event_stamps WHERE event_id = ?', parameters: [change.eventId] }];
    }
    // REPLACE: an insert for a new event, an overwrite for an update, on SQLite and MySQL alike.
    return [
      {
        sql: 'REPLACE INTO calendar_event_stamps (event_id, modified_at) VALUES (?, ?)',
        parameters: [change.event.eventId, Date.now()],
      },
    ];
  }

  /**
   * The statements for several changes of one kind to distinct events (a batch of creates or
   * deletes): one multi-row statement, all stamped with one time.
   */
  statementsForAll(changes: readonly EventChange[]): readonly SqlStatement[] {
    if (changes.length === 0) return [];
    if (changes.every((change) => change.kind === 'deleted')) {
      const ids = changes.map((change) => change.eventId);
      return [
        { sql: `DELETE FROM calendar_event_stamps WHERE event_id IN (${placeholders(ids.length)})`, parameters: ids },
      ];
    }
    if (changes.some((change) => change.kind === 'deleted'))
      return changes.flatMap((change) => this.statementsFor(change));
    const now = Date.now();
    return [
      {
        sql: `REPLACE INTO calendar_event_stamps (event_id, modified_at) VALUES ${changes.map(() => '(?, ?)').join(', ')}`,
        parameters: changes.flatMap((change) => (change.kind === 'deleted' ? [] : [change.event.eventId, now])),
      },
    ];
  }

  /** The stamps of these events, in one query; an event without a stamp is absent from the map. */
  async read(eventIds: readonly string[]): Promise<Map<string, number>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.sql.select<{ event_id: string; modified_at: number | string }>(
      `SELECT event_id, modified_at FROM calendar_event_stamps WHERE event_id IN (${placeholders(eventIds.length)})`,
      eventIds,
    );
    // MySQL returns BIGINT as a string.
    return new Map(rows.map((row) => [row.event_id, Number(row.modified_at)]));
  }

  /**
   * The stamps' count, latest and sum, in one aggregate query over this small table (no event is
   * read): a create adds a row, a delete removes one, an update rewrites one with a later time.
   */
  async version(): Promise<StampsVersion> {
    const [row] = await this.sql.select<{ stamps: number | string; latest: number | string; total: number | string }>(
      'SELECT COUNT(*) AS stamps, COALESCE(MAX(modified_at), 0) AS latest, COALESCE(SUM(modified_at % 2147483647), 0) AS total FROM calendar_event_stamps',
    );
    // MySQL returns BIGINT and DECIMAL as strings.
    return { count: Number(row.stamps), latest: Number(row.latest), sum: String(row.total) };
  }
}

/** A feed token as stored: never the token itself, only its SHA-256. */
export interface StoredCalendarToken {
  readonly tokenId: string;
  readonly description: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

interface TokenRow {
  token_id: string;
  description: string;
  created_at: number | string;
}

function toStored(row: TokenRow): StoredCalendarToken {
  // MySQL returns BIGINT as a string.
  return { tokenId: row.token_id, description: row.description, createdAt: Number(row.created_at) };
}

/** The feed tokens (`calendar_tokens`), each kept as the SHA-256 of the token (hex). */
@Injectable()
export class CalendarTokens {
  constructor(private readonly sql: Sql) {}

  async insert(stored: StoredCalendarToken, tokenHash: string): Promise<void> {
    await this.sql.execute(
      'INSERT INTO calendar_tokens (token_id, token_hash, description, created_at) VALUES (?, ?, ?, ?)',
      [stored.tokenId, tokenHash, stored.description, stored.createdAt],
    );
  }

  /** Every token, oldest first. */
  async list(): Promise<StoredCalendarToken[]> {
    const rows = await this.sql.select<TokenRow>(
      'SELECT token_id, description, created_at FROM calendar_tokens ORDER BY created_at, token_id',
    );
    return rows.map(toStored);
  }

  /** Deletes the token; false when there was none with this id. */
  async delete(tokenId: string): Promise<boolean> {
    return (await this.sql.execute('DELETE FROM calendar_tokens WHERE token_id = ?', [tokenId])) > 0;
  }

  /** The stored hash equal to `tokenHash` (an index lookup), or undefined. */
  async storedHash(tokenHash: string): Promise<string | undefined> {
    const rows = await this.sql.select<{ token_hash: string }>(
      'SELECT token_hash FROM calendar_tokens WHERE token_hash = ?',
      [tokenHash],
    );
    return rows[0]?.token_hash;
  }
}
