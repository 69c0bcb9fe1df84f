import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A special event as stored. Column types hold every value validation accepts on both databases
 * (see the migrations): VARCHAR sizes count characters in utf8mb4, `price` is an 8-byte double
 * (a 4-byte float would turn 19.99 into 19.989999771118164), and `dates` is JSON (a
 * `simple-array` would split dates that contain commas).
 */
@Entity({ name: 'special_events', withoutRowid: true })
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
}
