import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Public } from '../common/http/public.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';

@Public()
@ApiTags('Operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOperation({
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description:
      'Request counts and latency by route pattern and status, authentication failures, database state and process ' +
      'metrics, in the Prometheus text exposition format. No authentication; switched off (404) with METRICS_ENABLED=false.',
  })
  @ApiProduces('text/plain')
  @ApiProblemResponses(431)
  @ApiOkResponse({
    description: 'The current metrics, in the Prometheus text exposition format (version 0.0.4).',
    content: {
      'text/plain': {
        schema: {
          type: 'string',
          example: 'http_requests_total{method="POST",route="/special-events",status="201"} 3\n',
        },
      },
    },
  })
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
