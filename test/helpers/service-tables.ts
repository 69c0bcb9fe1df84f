/**
 * The tables the service's own migrations create, by name: the MySQL and Galera tests check that
 * each is there (InnoDB, with a primary key) beside any a new module adds.
 */
export const SERVICE_TABLES: readonly string[] = [
  'admission_prices',
  'calendar_event_stamps',
  'calendar_tokens',
  'credentials_epoch',
  'cursor_signing_keys',
  'idempotency_keys',
  'migrations',
  'museum_clock',
  'museum_general_admissions',
  'museum_hours_exceptions',
  'museum_hours_revision',
  'museum_slot_admissions',
  'museum_weekly_hours',
  'orders',
  'public_read_hits',
  'special_event_dates',
  'special_event_sessions',
  'special_events',
  'tickets',
  'users',
  'webhook_deliveries',
  'webhook_subscriptions',
];
