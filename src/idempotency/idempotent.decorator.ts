import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { IdempotencyGuard } from './idempotency.guard.js';

/**
 * Makes a write safe to retry with an `Idempotency-Key` header (IdempotencyGuard), and documents
 * the header, the replay and the 409/422 it adds. The key's fingerprint needs the body read:
 * installRouteDefaults puts the body reader first among a handler's own guards.
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(
    UseGuards(IdempotencyGuard),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry (draft-ietf-httpapi-idempotency-key-header): 1 to 255 visible ASCII ' +
        'characters, unique per intended change (a UUID is a good choice). The same request with the same key ' +
        'within 24 hours gets the first response again, byte for byte, with `Idempotent-Replayed: true`, and ' +
        'changes nothing. Keys are per user. Errors are not kept: the request may be retried with the same key.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    }),
    ApiProblemResponses(
      {
        status: 409,
        description:
          'A request with the same Idempotency-Key is still being processed; retry shortly with the same key.',
        detail: 'A request with this Idempotency-Key is still being processed; retry shortly.',
      },
      422,
    ),
  );
