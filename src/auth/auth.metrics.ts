import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * The authentication counters:
 * - `auth_failures_total`: the Basic guard calls `recordFailure()` for every refused credential;
 * - `auth_password_checks_total`: one per password hash computed to check credentials, i.e. per
 *   credential-cache miss. Concurrent requests with the same new credentials share one check, and
 *   repeated identical credentials, right or wrong, cost none until the cache entry expires.
 */
@Injectable()
export class AuthMetrics {
  private readonly failures: Counter;
  private readonly passwordChecks: Counter;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'auth_failures_total',
      help: 'Requests refused with 401 for missing or invalid credentials.',
      registers: [registry],
    });
    this.passwordChecks = new Counter({
      name: 'auth_password_checks_total',
      help: 'Password hashes computed to check credentials (credential-cache misses).',
      registers: [registry],
    });
  }

  recordFailure(): void {
    this.failures.inc();
  }

  recordPasswordCheck(): void {
    this.passwordChecks.inc();
  }
}
