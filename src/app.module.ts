import { type DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ProblemsModule } from './common/problem/problems.module.js';
import { databaseUnavailableProblem } from './database/database-problems.js';
import { StrictValidationPipe } from './common/validation/strict-validation.pipe.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { type Feature, FEATURES, migrationsOf } from './features.js';
import { MetricsModule } from './metrics/metrics.module.js';

/**
 * The whole service: the foundations, then every feature of src/features.ts (and `more`, which
 * tests add), their migrations as one history. The global pieces are APP_* providers (the Basic
 * guard is AuthModule's), so anything that compiles this module gets the production pipeline.
 * Reading JSON bodies, 405 and the 404 below a controller's paths come from the routes themselves
 * (installRouteDefaults, run by createApp).
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, more: readonly Feature[] = []): DynamicModule {
    const features = [...FEATURES, ...more];
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ProblemsModule.forRoot([databaseUnavailableProblem]),
        MetricsModule.forRoot(config),
        DatabaseModule.forRoot(migrationsOf(features)),
        ...features.flatMap((feature) => (feature.loadedWhen?.(config) === false ? [] : (feature.module ?? []))),
      ],
      providers: [{ provide: APP_PIPE, useClass: StrictValidationPipe }],
    };
  }
}
