import type { Type } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { ADMISSION_PRICES_MIGRATIONS } from './admission-prices/admission-prices.migrations.js';
import { AdmissionPricesModule } from './admission-prices/admission-prices.module.js';
import { AUTH_MIGRATIONS } from './auth/auth.migrations.js';
import { AuthModule } from './auth/auth.module.js';
import { CALENDAR_MIGRATIONS } from './calendar/calendar.migrations.js';
import { CalendarModule } from './calendar/calendar.module.js';
import { type DriverMigrations, inOneHistory } from './database/migration-history.js';
import { DoorModule } from './door/door.module.js';
import { HealthModule } from './health/health.module.js';
import { IDEMPOTENCY_MIGRATIONS } from './idempotency/idempotency.migrations.js';
import { MUSEUM_HOURS_MIGRATIONS } from './museum-hours/museum-hours.migrations.js';
import { MuseumHoursModule } from './museum-hours/museum-hours.module.js';
import { SPECIAL_EVENTS_MIGRATIONS } from './special-events/special-events.migrations.js';
import { SpecialEventsModule } from './special-events/special-events.module.js';
import { TESTING_MIGRATIONS } from './testing/testing.migrations.js';
import { TestingModule } from './testing/testing.module.js';
import { TICKETS_MIGRATIONS } from './tickets/tickets.migrations.js';
import { TicketsModule } from './tickets/tickets.module.js';
import { WEBHOOKS_MIGRATIONS } from './webhooks/webhooks.migrations.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { ORDERS_MIGRATIONS } from './orders/orders.migrations.js';
import { OrdersModule } from './orders/orders.module.js';

/**
 * A feature of the service: its Nest module, and the migrations of its tables if it has any. A
 * feature that other modules import and the service does not (idempotency) has no module here.
 */
export interface Feature {
  readonly module?: Type;
  readonly migrations?: DriverMigrations;
  /** Whether the module is loaded with this configuration (default: always). Its migrations always run. */
  readonly loadedWhen?: (config: AppConfig) => boolean;
}

/**
 * Every feature, in one list: AppModule imports their modules in this order, and their migrations
 * run as one history ordered by timestamp (MIGRATIONS). Adding a feature is one line here.
 */
export const FEATURES: readonly Feature[] = [
  { module: AuthModule, migrations: AUTH_MIGRATIONS },
  { migrations: IDEMPOTENCY_MIGRATIONS },
  { module: SpecialEventsModule, migrations: SPECIAL_EVENTS_MIGRATIONS },
  { module: CalendarModule, migrations: CALENDAR_MIGRATIONS },
  { module: WebhooksModule, migrations: WEBHOOKS_MIGRATIONS },
  { module: MuseumHoursModule, migrations: MUSEUM_HOURS_MIGRATIONS },
  { module: AdmissionPricesModule, migrations: ADMISSION_PRICES_MIGRATIONS },
  { module: TicketsModule, migrations: TICKETS_MIGRATIONS },
  { module: OrdersModule, migrations: ORDERS_MIGRATIONS },
  { module: DoorModule },
  { module: HealthModule },
  { module: TestingModule, migrations: TESTING_MIGRATIONS, loadedWhen: (config) => config.testMode },
];

/** The migrations of `features` as one history per driver, oldest first. */
export function migrationsOf(features: readonly Feature[]): DriverMigrations {
  return inOneHistory(features.flatMap((feature) => feature.migrations ?? []));
}

/** Every feature's migrations as one history per driver, oldest first. */
export const MIGRATIONS: DriverMigrations = migrationsOf(FEATURES);
