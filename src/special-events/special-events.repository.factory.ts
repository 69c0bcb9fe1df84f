import type { DataSource } from 'typeorm';
import type { DatabasePoolConfig } from '../config/app-config.js';
import { EventWriteParticipants } from './event-write-participants.js';
import { SpecialEvent } from './special-event.entity.js';
import type { SpecialEventsRepository } from './special-events.repository.js';
import { MysqlSpecialEventsRepository, mysqlBinaryReader } from './special-events.repository.mysql.js';
import { SqliteSpecialEventsRepository } from './special-events.repository.sqlite.js';

/**
 * The repository for the DataSource's driver (the two buildDataSourceOptions builds): prepared
 * statements and group commit on SQLite, batched writes on MySQL/MariaDB. A MySQL write gets as
 * long as waiting for a connection and one query may take (`pool`), and no longer. Every write
 * runs the `participants`' statements in its own transaction.
 */
export function createSpecialEventsRepository(
  dataSource: DataSource,
  pool: DatabasePoolConfig,
  participants = new EventWriteParticipants(),
): SpecialEventsRepository {
  return dataSource.options.type === 'better-sqlite3'
    ? new SqliteSpecialEventsRepository(dataSource, participants)
    : new MysqlSpecialEventsRepository(
        dataSource.getRepository(SpecialEvent),
        pool.acquireTimeoutMs + pool.queryTimeoutMs,
        mysqlBinaryReader(dataSource),
        participants,
      );
}
