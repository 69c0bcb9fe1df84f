import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The general-admission tickets sold for a date: the one row a sale updates, conditionally, so
 * that the database decides the day's capacity (admitGeneral). A change of the date's exception
 * adds one to `revision`: it writes this row too, so it and the date's sales wait for each other.
 */
@Entity({ name: 'museum_general_admissions', withoutRowid: true })
export class GeneralAdmissions {
  @PrimaryColumn({ type: 'char', length: 10 })
  day: string;

  @Column({ type: 'integer' })
  sold: number;

  @Column({ type: 'integer' })
  revision: number;
}
