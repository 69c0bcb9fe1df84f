import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One {{singularWords}}: the `{{table}}` table's one description. Its migrations build exactly this
 * (src/database/database-options.spec.ts compares them); a changed column is a new migration from
 * `npm run migration:generate -- {{plural}} <Name>`.
 */
@Entity({ name: '{{table}}', withoutRowid: true })
export class {{Singular}} {
  /** Lowercase hyphenated UUID, chosen by the client (PUT). */
  @PrimaryColumn({ name: '{{singular_snake}}_id', type: 'varchar', length: 36 })
  {{singularCamel}}Id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Epoch milliseconds of the last store: MySQL returns a bigint as a string, read with Number(). */
  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;
}
