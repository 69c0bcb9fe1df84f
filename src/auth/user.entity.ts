import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from './roles.js';

/** A person or system allowed to call the service with HTTP Basic credentials. */
@Entity({ name: 'users', withoutRowid: true })
export class User {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  username: string;

  /** Self-describing scrypt hash (see PasswordHasher); never the password itself. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  /** What the user may do (roles.ts); users from before roles existed are editors. */
  @Column({ type: 'varchar', length: 16, default: 'editor' })
  role: Role;

  /** Milliseconds since the epoch; ordered listings and audit. */
  @Column({
    name: 'created_at',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  createdAt: number;

  @Column({
    name: 'updated_at',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  updatedAt: number;
}
