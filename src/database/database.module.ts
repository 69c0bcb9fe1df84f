import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { buildDataSourceOptions } from './database-options.js';
import { mysqlPoolOf } from './driver-handles.js';
import { withMigrationLock } from './migration-lock.js';
import { boundPoolAcquire } from './pool-acquire-timeout.js';

/** Gives the MySQL pool the acquire timeout mysql2 lacks (see boundPoolAcquire). */
@Injectable()
export class MysqlPoolBounds implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const pool = mysqlPoolOf(this.dataSource);
    if (pool) boundPoolAcquire(pool, this.config.databasePool.acquireTimeoutMs);
  }
}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database, config.runMigrations, config.databasePool),
        // Each feature module brings its own entities (TypeOrmModule.forFeature in its folder).
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
    }),
  ],
  providers: [MysqlPoolBounds],
})
export class DatabaseModule {}
