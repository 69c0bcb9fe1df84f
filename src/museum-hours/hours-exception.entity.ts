import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A date that differs from the week: closed (`closed` 1), or open with its own hours and capacity. */
@Entity({ name: 'museum_hours_exceptions', withoutRowid: true })
export class HoursException {
  @PrimaryColumn({ type: 'char', length: 10 })
  day: string;

  @Column({ type: 'smallint' })
  closed: number;

  @Column({ name: 'time_open', type: 'char', length: 5, nullable: true })
  timeOpen: string | null;

  @Column({ name: 'time_close', type: 'char', length: 5, nullable: true })
  timeClose: string | null;

  @Column({ type: 'integer', nullable: true })
  capacity: number | null;
}
