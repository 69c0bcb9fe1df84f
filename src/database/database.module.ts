import { type DynamicModule, Global, Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { buildDataSourceOptions } from './database-options.js';
import type { DriverMigrations } from './migration-history.js';
import { mysqlPoolOf } from './driver-handles.js';
import { withMigrationLock } from './migration-lock.js';
import { ResetRegistry } from './reset-registry.js';
import { Sql } from './sql.js';
import { boundPoolAcquire } from './pool-acquire-timeout.js';
import { discardUnsafeConnections } from './unsafe-connections.js';
import { WriteHealth } from './write-health.js';
import { WriteSlots } from './write-slots.js';

/**
 * Gives the MySQL pool what mysql2's lacks: an acquire timeout (see boundPoolAcquire), and no
 * reuse of a connection whose query timed out (see discardUnsafeConnections).
 */
@Injectable()
export class MysqlPoolBounds implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const pool = mysqlPoolOf(this.dataSource);
    if (!pool) return;
    boundPoolAcquire(pool, this.config.databasePool.acquireTimeoutMs);
    discardUnsafeConnections(pool);
  }
}

/**
 * Global: every module reaches the database through the one Sql facade, whose writes report to
 * the one WriteHealth that readiness reads. The migrations are the features' (src/features.ts
 * joins them): this folder holds none of its own.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(migrations: DriverMigrations): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [databaseConnection(migrations)],
      providers: [
        MysqlPoolBounds,
        WriteHealth,
        {
          provide: ResetRegistry,
          useFactory: () => {
            const registry = new ResetRegistry();
            // TypeORM's record of the migrations run: the schema outlives a reset.
            registry.keeps('database', ['migrations']);
            return registry;
          },
        },
        {
          provide: Sql,
          inject: [DataSource, WriteHealth, APP_CONFIG],
          useFactory: (dataSource: DataSource, writeHealth: WriteHealth, config: AppConfig) =>
            new Sql(dataSource, writeHealth, {
              batchDeadlineMs: config.databasePool.acquireTimeoutMs + config.databasePool.queryTimeoutMs,
              writeSlots: new WriteSlots(
                WriteSlots.forPool(config.databasePool.size),
                config.databasePool.acquireTimeoutMs,
              ),
            }),
        },
      ],
      exports: [WriteHealth, Sql, ResetRegistry],
    };
  }
}

function databaseConnection(migrations: DriverMigrations): DynamicModule {
  return TypeOrmModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => ({
      ...buildDataSourceOptions(config.database, config.runMigrations, config.databasePool, migrations),
      // The entities modules register (special events'), for the tools and tests that read through them.
      autoLoadEntities: true,
      // SQLite: a wrong path must be reported at once. MySQL: the server may still be starting
      // (containers come up together), so retry for a while before giving up.
      retryAttempts: config.database.type === 'mysql' ? 5 : 0,
      retryDelay: 2000,
    }),
    dataSourceFactory: async (options) => {
      if (!options) throw new Error('TypeORM options are missing');
      const dataSource = new DataSource(options);
      return withMigrationLock(options, () => dataSource.initialize());
    },
  });
}
