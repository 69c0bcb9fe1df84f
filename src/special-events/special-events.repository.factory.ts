import type { Sql } from '../database/sql.js';
import { EventWriteParticipants } from './event-write-participants.js';
import type { SpecialEventsRepository } from './special-events.repository.js';
import { MysqlSpecialEventsRepository } from './special-events.repository.mysql.js';
import { SqliteSpecialEventsRepository } from './special-events.repository.sqlite.js';

/**
 * The repository for Sql's database: on SQLite its writes join the group commit one by one, on
 * MySQL/MariaDB creates and deletes are batched. Every write runs the `participants'` statements
 * in its own transaction.
 */
export function createSpecialEventsRepository(
  sql: Sql,
  participants = new EventWriteParticipants(),
): SpecialEventsRepository {
  return sql.isMysql
    ? new MysqlSpecialEventsRepository(sql, participants)
    : new SqliteSpecialEventsRepository(sql, participants);
}
