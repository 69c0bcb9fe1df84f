import { Injectable } from '@nestjs/common';
import { columnOf, insertInto, type RowOf, selectList, tableOf } from '../database/entity-columns.js';
import { Sql } from '../database/sql.js';
import type { Role } from './roles.js';
import { User } from './user.entity.js';

const USERS = tableOf(User);
const USERNAME = columnOf(User, 'username');
const PASSWORD_HASH = columnOf(User, 'passwordHash');
const ROLE = columnOf(User, 'role');
const UPDATED_AT = columnOf(User, 'updatedAt');
const SELECT_USER = `SELECT ${selectList(User)} FROM ${USERS}`;
const USER_COLUMNS = ['username', 'passwordHash', 'role', 'createdAt', 'updatedAt'] as const;
const INSERT_USER = insertInto(User, USER_COLUMNS);

/** One row (`credentials_epoch`, no entity) that every change to the users moves on. */
const READ_EPOCH = 'SELECT epoch FROM credentials_epoch WHERE id = 1';
const BUMP_EPOCH = 'UPDATE credentials_epoch SET epoch = epoch + 1 WHERE id = 1';

function toUser(row: RowOf<User>): User {
  return { ...row, createdAt: Number(row.createdAt), updatedAt: Number(row.updatedAt) };
}

/** The users (`users`) and the credentials epoch that announces their changes. */
@Injectable()
export class UsersRepository {
  constructor(private readonly sql: Sql) {}

  /** The user stored under exactly this name, as the database compares it. */
  async find(username: string): Promise<User | null> {
    const [row] = await this.sql.select<RowOf<User>>(`${SELECT_USER} WHERE ${USERNAME} = ?`, [username]);
    return row === undefined ? null : toUser(row);
  }

  async count(): Promise<number> {
    const [row] = await this.sql.select<{ users: number | string }>(`SELECT COUNT(*) AS users FROM ${USERS}`);
    return Number(row.users);
  }

  /** Every user, by name. */
  async list(): Promise<User[]> {
    return (await this.sql.select<RowOf<User>>(`${SELECT_USER} ORDER BY ${USERNAME}`)).map(toUser);
  }

  /** Throws a unique violation (isUniqueViolation) when the name is taken. */
  async insert(user: User): Promise<void> {
    await this.sql.execute(
      INSERT_USER,
      USER_COLUMNS.map((property) => user[property]),
    );
  }

  /** Whether a user had this name. */
  async setPassword(username: string, passwordHash: string, updatedAt: number): Promise<boolean> {
    return (
      (await this.sql.execute(`UPDATE ${USERS} SET ${PASSWORD_HASH} = ?, ${UPDATED_AT} = ? WHERE ${USERNAME} = ?`, [
        passwordHash,
        updatedAt,
        username,
      ])) > 0
    );
  }

  /** Replaces the hash only while it is still `current`; whether it did. */
  async replaceHash(username: string, current: string, renewed: string): Promise<boolean> {
    return (
      (await this.sql.execute(
        `UPDATE ${USERS} SET ${PASSWORD_HASH} = ? WHERE ${USERNAME} = ? AND ${PASSWORD_HASH} = ?`,
        [renewed, username, current],
      )) > 0
    );
  }

  /** Whether a user had this name. */
  async setRole(username: string, role: Role, updatedAt: number): Promise<boolean> {
    return (
      (await this.sql.execute(`UPDATE ${USERS} SET ${ROLE} = ?, ${UPDATED_AT} = ? WHERE ${USERNAME} = ?`, [
        role,
        updatedAt,
        username,
      ])) > 0
    );
  }

  /** Whether a user had this name. */
  async delete(username: string): Promise<boolean> {
    return (await this.sql.execute(`DELETE FROM ${USERS} WHERE ${USERNAME} = ?`, [username])) > 0;
  }

  /** The credentials epoch: it moves on with every change to the users (bumpEpoch). */
  async epoch(): Promise<number> {
    const [row] = await this.sql.select<{ epoch: number | string }>(READ_EPOCH);
    return Number(row?.epoch ?? 0);
  }

  async bumpEpoch(): Promise<void> {
    await this.sql.execute(BUMP_EPOCH);
  }
}
