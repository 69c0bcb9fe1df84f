import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module.js';
import { CalendarModule } from './calendar/calendar.module.js';
import { ProblemsModule } from './common/problem/problems.module.js';
import { databaseUnavailableProblem } from './database/database-problems.js';
import { StrictValidationPipe } from './common/validation/strict-validation.pipe.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DoorModule } from './door/door.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MuseumHoursModule } from './museum-hours/museum-hours.module.js';
import { SpecialEventsModule } from './special-events/special-events.module.js';
import { TicketsModule } from './tickets/tickets.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/**
 * The whole service. The global pieces are APP_* providers (the Basic guard is AuthModule's), so
 * anything that compiles this module gets the production pipeline. Reading JSON bodies, 405 and
 * the 404 below a controller's paths come from the routes themselves (installRouteDefaults, run by
 * createApp).
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, modules: readonly Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ProblemsModule.forRoot([databaseUnavailableProblem]),
        MetricsModule.forRoot(config),
        DatabaseModule,
        AuthModule,
        SpecialEventsModule,
        CalendarModule,
        WebhooksModule,
        MuseumHoursModule,
        TicketsModule,
        DoorModule,
        HealthModule,
        ...modules,
      ],
      providers: [{ provide: APP_PIPE, useClass: StrictValidationPipe }],
    };
  }
}
