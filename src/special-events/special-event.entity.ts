import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CategoryPrice } from '../domain/price-categories.js';

/**
 * A special event as stored. Column types hold every value validation accepts on both databases
 * (see the migrations): VARCHAR sizes count characters in utf8mb4, `price` is an 8-byte double
 * (a 4-byte float would turn 19.99 into 19.989999771118164), and `dates` is JSON (a
 * `simple-array` would split dates that contain commas).
 */
@Entity({ name: 'special_events', withoutRowid: true })
@Index('IDX_special_events_sort', ['sortDate', 'eventId'])
export class SpecialEvent {
  /** Lowercase hyphenated UUID. */
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 200 })
  location: string;

  @Column({ name: 'event_description', type: 'varchar', length: 5000 })
  eventDescription: string;

  @Column({ type: 'json' })
  dates: string[];

  @Column({ type: 'double' })
  price: number;

  /**
   * The representation's version, the ETag: a random start on create (so that an event deleted
   * and created again never repeats an old tag), plus one on every update. A conditional update
   * names the version it read, and the database decides.
   */
  @Column({
    type: 'bigint',
    default: 1,
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  version: number;

  /** The earliest ISO date of `dates`, or `~` (after every date) without one: the list's order. */
  @Column({ name: 'sort_date', type: 'varchar', length: 10, default: '~' })
  sortDate: string;

  /** The tickets the event may sell in all, over all its dates (EVENT_RULES), or null for no limit. */
  @Column({ type: 'integer', nullable: true })
  capacity: number | null;

  /** How long each session (a date item `YYYY-MM-DDTHH:MM`) lasts, in minutes, or null for no end given. */
  @Column({ name: 'duration_minutes', type: 'integer', nullable: true })
  durationMinutes: number | null;

  /**
   * The tickets each of the event's ISO dates may sell (its sessions on one date share them), or
   * null for no limit per date; checked as well as `capacity`.
   */
  @Column({ name: 'capacity_per_date', type: 'integer', nullable: true })
  capacityPerDate: number | null;

  /**
   * The prices by category (adult, child, …), in the order given, as JSON; null for none. `price`
   * stays the price of a ticket bought with no category.
   */
  @Column({ type: 'json', nullable: true })
  prices: CategoryPrice[] | null;

  /**
   * The tickets sold, counted for every event (with or without a capacity, so that a capacity set
   * later is checked against it). Only a reservation changes it (a conditional UPDATE that also
   * checks the capacity), never an update of the event, and it leaves `version` alone.
   */
  @Column({ name: 'tickets_sold', type: 'integer', default: 0 })
  ticketsSold: number;
}

/**
 * One ISO date of one event (domain/calendar-dates.ts): the index a date-range list walks in order. Its
 * primary key (event_date, event_id) is that index; (event_id, event_date) finds an event's own
 * dates, to replace them on update and delete, and to tell whether a date is an event's first in
 * the requested range. Written in the same transaction as the event, and by a sale (its tickets_sold).
 */
@Entity({ name: 'special_event_dates', withoutRowid: true })
@Index('IDX_special_event_dates_event', ['eventId', 'eventDate'])
export class SpecialEventDate {
  @PrimaryColumn({ name: 'event_date', type: 'varchar', length: 10 })
  eventDate: string;

  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  /**
   * The tickets sold for this date, counted for every event (so that a capacityPerDate set later
   * is checked against them): the row a sale takes its date's seat from, with one conditional
   * UPDATE in the sale's transaction. An update of the event keeps the rows of the dates it keeps.
   */
  @Column({ name: 'tickets_sold', type: 'integer', default: 0 })
  ticketsSold: number;
}

/**
 * One session of one event (domain/event-sessions.ts): a date item written `YYYY-MM-DDTHH:MM`,
 * kept as written. Its tickets_sold is the row a session's sale takes its seat from (capacityPerDate
 * bounds each session by itself), as a date's row is for the tickets of an all-day date. Written in
 * the same transaction as the event: an update keeps the rows of the sessions it keeps.
 */
@Entity({ name: 'special_event_sessions', withoutRowid: true })
export class SpecialEventSession {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @PrimaryColumn({ name: 'session', type: 'varchar', length: 16 })
  session: string;

  @Column({ name: 'tickets_sold', type: 'integer', default: 0 })
  ticketsSold: number;
}
