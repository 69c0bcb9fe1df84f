import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Registry } from 'prom-client';
import type { AppConfig } from '../config/app-config.js';
import { AuthMetrics } from '../auth/auth.metrics.js';
import { DatabaseMetrics } from '../database/database.metrics.js';
import { HttpMetrics } from '../common/http/http.metrics.js';
import { MetricsController } from './metrics.controller.js';
import { createMetricsRegistry } from './metrics-registry.js';

/**
 * Prometheus metrics at GET /metrics, unauthenticated. With METRICS_ENABLED=false there is no
 * route (404 like any unknown path) and no per-request work (configureApp mounts HttpMetrics only
 * when enabled); AuthMetrics stays injectable for the Basic guard and counts into a
 * registry nobody reads, as do the feature modules' metrics.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const registry = { provide: Registry, useFactory: createMetricsRegistry };
    if (!config.metricsEnabled) {
      return { module: MetricsModule, providers: [registry, AuthMetrics], exports: [Registry, AuthMetrics] };
    }
    return {
      module: MetricsModule,
      controllers: [MetricsController],
      providers: [registry, AuthMetrics, DatabaseMetrics, HttpMetrics],
      // The registry, for a feature module's own metrics (webhooks.metrics.ts).
      exports: [Registry, AuthMetrics],
    };
  }
}
