import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One category of general admission and its price (GET/PUT /admission-prices): the
 * `admission_prices` table's one description. GENERAL_ADMISSION_PRICE stays the price of a
 * general ticket bought with no category; this table holds only the categories. Its migrations
 * build exactly this (src/database/database-options.spec.ts compares them).
 */
@Entity({ name: 'admission_prices', withoutRowid: true })
export class AdmissionPrice {
  /** 1 to 40 code points, no white space at either end (so MySQL's PAD SPACE collations never merge two). */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  category: string;

  /** An 8-byte double, as special events keep their prices. */
  @Column({ type: 'double' })
  price: number;

  /** Its place in the list as it was put (0 first): reads answer in that order. */
  @Column({ type: 'integer' })
  position: number;
}
