import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { buildDataSourceOptions } from './database-options.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database, config.runMigrations),
        // Fail at start instead of retrying forever: a wrong DATABASE_URL must be reported.
        retryAttempts: 0,
      }),
    }),
  ],
})
export class DatabaseModule {}
