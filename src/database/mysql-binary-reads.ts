import type { PoolConnection, RowDataPacket } from 'mysql2';
import type { DataSource } from 'typeorm';
import { mysqlPoolOf } from './driver-handles.js';

/**
 * Reads as prepared statements (mysql2 `execute`: MySQL's binary protocol). The text protocol,
 * which TypeORM's queries use, sends a DOUBLE as decimal text, and MariaDB writes it with 15
 * significant digits: 92007.34631975321 would read back as 92007.3463197532. The binary protocol
 * sends the 8 bytes themselves. Statements are prepared once per connection and kept (mysql2's
 * per-connection cache). A connection whose query timed out is destroyed, never returned to the
 * pool: its query may still be running there. `arrays`: each row as an array, in the select
 * list's order.
 */
export function readBinary(
  dataSource: DataSource,
  sql: string,
  parameters: readonly unknown[],
  arrays: boolean,
): Promise<unknown[]> {
  const pool = mysqlPoolOf(dataSource);
  if (!pool) return Promise.reject(new Error('The connection is not established'));
  const timeout = (dataSource.options as { maxQueryExecutionTime?: number }).maxQueryExecutionTime;
  dataSource.logger.logQuery(sql, [...parameters]);
  return new Promise((resolve, reject) => {
    pool.getConnection((acquireError: NodeJS.ErrnoException | null, connection: PoolConnection) => {
      if (acquireError) return reject(acquireError);
      connection.execute<RowDataPacket[]>(
        { sql, timeout, rowsAsArray: arrays },
        [...parameters] as never,
        (error, rows) => {
          if (error) {
            if (error.fatal || error.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
            else connection.release();
            return reject(error);
          }
          connection.release();
          resolve(rows);
        },
      );
    });
  });
}
