import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE, statusTitle } from './problem.js';
import { ProblemDetailsSchema } from './problem-details.schema.js';

/** `required`: the service always sends the header with this status. */
type HeaderObject = { description: string; required: true; schema: { type: 'string' | 'integer' } };

const WHEN: Readonly<Record<number, string>> = {
  400: 'Invalid input: the body or a parameter breaks a rule; `errors` names every failing field. Malformed JSON too.',
  401: 'Missing or invalid credentials. The same answer for every kind of failure.',
  403: "Authenticated, but the user's role may not do this (a viewer only lists and reads).",
  404: 'No such resource.',
  409:
    'An event with this eventId already exists (the stored event is unchanged), or a request with the same ' +
    'Idempotency-Key is still being processed (retry shortly with the same key).',
  412: 'If-Match names a tag that is no longer current: the event changed meanwhile and this change was not applied.',
  413: 'The body is larger than 256 KiB.',
  415: 'The body is not sent as JSON (UTF-8) of a media type the operation accepts.',
  422: 'This Idempotency-Key was already used by this user for a different request (method, path or body).',
  429: 'Too many failed authentications from this address.',
  431: 'The request headers are larger than 16 KiB. Answered by the HTTP server before routing, so `instance` is `/`.',
  503: 'The database is unavailable; retry after the given time.',
};

const HEADERS: Readonly<Record<number, Record<string, HeaderObject>>> = {
  401: {
    'WWW-Authenticate': {
      description: 'Always `Basic realm="museum", charset="UTF-8"`.',
      required: true,
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': { description: 'Seconds until this address may try again.', required: true, schema: { type: 'integer' } },
  },
  503: { 'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer' } } },
};

/** Documents error responses as `application/problem+json` (RFC 9457) with their headers. */
export function ApiProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsSchema),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: WHEN[status] ?? statusTitle(status),
        headers: HEADERS[status],
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDetailsSchema) } } },
      }),
    ),
  );
}
