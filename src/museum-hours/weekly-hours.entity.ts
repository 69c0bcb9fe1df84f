import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One open weekday of the regular week (ISO numbering, 1 = Monday); a weekday without a row is
 * closed. The service reads and writes it with plain SQL (museum-hours.service.ts); the entity
 * declares the table for TypeORM's tools and the schema check of the migrations.
 */
@Entity({ name: 'museum_weekly_hours', withoutRowid: true })
export class WeeklyHours {
  @PrimaryColumn({ type: 'smallint' })
  weekday: number;

  @Column({ name: 'time_open', type: 'char', length: 5 })
  timeOpen: string;

  @Column({ name: 'time_close', type: 'char', length: 5 })
  timeClose: string;

  /** General-admission tickets a day like this may sell; null: no limit. */
  @Column({ type: 'integer', nullable: true })
  capacity: number | null;
}
