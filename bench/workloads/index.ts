/**
 * Every workload and alternation of the benchmark, module by module. The runner (run.ts), --only
 * (measure/options.ts), the report's tables and the targets (report/) all take them from here:
 * a new module's workloads are one file beside these, added to MODULES (README.md).
 */
import { CALENDAR } from './calendar.js';
import { IDEMPOTENCY } from './idempotency.js';
import { MUSEUM_HOURS } from './museum-hours.js';
import { PRICE_CATEGORIES } from './price-categories.js';
import { ORDERS } from './orders.js';
import { PUBLIC_READ } from './public-read.js';
import { SPECIAL_EVENTS } from './special-events.js';
import { TICKET_SEARCH } from './ticket-search.js';
import { TICKETS } from './tickets.js';
import { TIME_SLOTS } from './time-slots.js';
import { WEBHOOKS } from './webhooks.js';
import type { Alternation, BenchModule } from './workload.js';

/** In the order the workloads run and the report lists them. */
const MODULES = [
  SPECIAL_EVENTS,
  TICKETS,
  TICKET_SEARCH,
  ORDERS,
  MUSEUM_HOURS,
  TIME_SLOTS,
  PRICE_CATEGORIES,
  PUBLIC_READ,
  IDEMPOTENCY,
  WEBHOOKS,
  CALENDAR,
] as const satisfies BenchModule[];

type AnyWorkload = (typeof MODULES)[number]['workloads'][number];
export type WorkloadName = AnyWorkload['name'];
export const WORKLOADS = MODULES.flatMap((module: BenchModule) => module.workloads) as readonly AnyWorkload[];
export const WORKLOAD_NAMES: readonly WorkloadName[] = WORKLOADS.map((workload) => workload.name);
export const ALTERNATIONS: readonly Alternation[] = MODULES.flatMap((module: BenchModule) => module.alternations ?? []);
