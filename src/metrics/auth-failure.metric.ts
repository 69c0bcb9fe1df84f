import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** `auth_failures_total`: the Basic guard calls `record()` for every refused credential. */
@Injectable()
export class AuthFailureMetric {
  private readonly failures: Counter;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'auth_failures_total',
      help: 'Requests refused with 401 for missing or invalid credentials.',
      registers: [registry],
    });
  }

  record(): void {
    this.failures.inc();
  }
}
