import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { mysqlPoolOf } from './driver-handles.js';
import { Sql } from './sql.js';

/** How long a scrape waits for the database to answer before reporting it down. */
const PROBE_TIMEOUT_MS = 1000;

/** The parts of mysql2's pool the driver holds that its typings leave out (queues with a length). */
interface MysqlPoolInternals {
  readonly _allConnections?: { readonly length: number };
  readonly _freeConnections?: { readonly length: number };
  readonly _connectionQueue?: { readonly length: number };
  readonly config?: { readonly connectionLimit?: number };
}

/**
 * Database state, read when Prometheus scrapes (nothing runs between scrapes): `db_up` on every
 * database, from a `SELECT 1` through Sql, as every read goes; on MySQL also the connection pool
 * of TypeORM's driver (driver-handles.ts).
 */
@Injectable()
export class DatabaseMetrics {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: Sql,
    registry: Registry,
  ) {
    const probe = (): Promise<number> => this.probe();
    const up: Gauge = new Gauge({
      name: 'db_up',
      help: 'Whether the database answered a trivial query within one second (1) or not (0).',
      registers: [registry],
      async collect() {
        up.set(await probe());
      },
    });
    if (dataSource.options.type === 'mysql') this.registerPoolGauges(registry);
  }

  private async probe(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(0), PROBE_TIMEOUT_MS);
    });
    const query = this.sql.select('SELECT 1').then(
      () => 1,
      () => 0,
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private registerPoolGauges(registry: Registry): void {
    const pool = (): MysqlPoolInternals | undefined => mysqlPoolOf(this.dataSource) as MysqlPoolInternals | undefined;
    const gauge = (name: string, help: string, read: (pool: MysqlPoolInternals) => number | undefined): void => {
      const metric: Gauge = new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const current = pool();
          metric.set((current && read(current)) ?? 0);
        },
      });
    };
    gauge(
      'db_pool_connections_open',
      'MySQL connections the pool holds open (in use or idle).',
      (p) => p._allConnections?.length,
    );
    gauge(
      'db_pool_connections_idle',
      'MySQL connections open and idle in the pool.',
      (p) => p._freeConnections?.length,
    );
    gauge(
      'db_pool_connections_max',
      'The most connections the pool may open (DB_POOL_SIZE).',
      (p) => p.config?.connectionLimit,
    );
    gauge('db_pool_queued_requests', 'Queries waiting for a free MySQL connection.', (p) => p._connectionQueue?.length);
  }
}
