import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE, statusTitle } from './problem.js';
import { ProblemDetailsSchema } from './problem-details.schema.js';

/** `required`: the service always sends the header with this status. */
type HeaderObject = { description: string; required: true; schema: { type: 'string' | 'integer' } };

const WHEN: Readonly<Record<number, string>> = {
  400: 'Invalid input: the body or a parameter breaks a rule; `errors` names the failing fields (the first 20 errors). Malformed JSON too.',
  401: 'Missing or invalid credentials. The same answer for every kind of failure.',
  403: "Authenticated, but the user's role may not do this (a viewer only lists and reads).",
  404: 'No such resource.',
  409: 'The request conflicts with the current state of the resource.',
  412: 'If-Match names a tag that is no longer current: the event changed meanwhile and this change was not applied.',
  413: 'The body is larger than 256 KiB.',
  415: 'The body is not sent as JSON (UTF-8) of a media type the operation accepts.',
  422: 'This Idempotency-Key was already used by this user for a different request (method, path or body).',
  429: 'Too many wrong credentials for this user name from this address, or for many names from this address.',
  431: 'The request headers are larger than 16 KiB. Answered by the HTTP server before routing, so `instance` is `/`.',
  503: 'The database is unavailable, or too many password checks are waiting; retry after the given time.',
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
    'Retry-After': {
      description: 'Seconds until these credentials may be tried again from this address.',
      required: true,
      schema: { type: 'integer' },
    },
  },
  503: {
    'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer' } },
  },
};

/** What a problem of each status says in the document's example (not every detail there is). */
const EXAMPLE_DETAIL: Readonly<Record<number, string>> = {
  400: 'The request is invalid: check price.',
  401: 'Valid HTTP Basic credentials are required.',
  403: 'You are not allowed to do this.',
  404: 'No resource exists at this path.',
  409: 'The resource already exists.',
  413: 'The request body must be at most 262144 bytes.',
  415: 'The request body must be JSON, sent with Content-Type: application/json.',
  429: 'Too many failed authentication attempts from this address; try again later.',
  431: 'The request headers are too large.',
  503: 'The service cannot reach its database right now; retry shortly.',
};

/** A status with the generic wording, or with the module's own (`{ status: 409, description }`). */
export type ProblemResponse =
  number | { readonly status: number; readonly description: string; readonly detail?: string };

/**
 * Documents error responses as `application/problem+json` (RFC 9457) with their headers, and an
 * example per status. A module words a response its own way by passing `{ status, description }`
 * (and the example's `detail`); plain numbers take the generic wording.
 */
export function ApiProblemResponses(...responses: ProblemResponse[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsSchema),
    ...responses.map((response) => {
      const { status, description, detail } = typeof response === 'number' ? { status: response } : response;
      const example: Record<string, unknown> = {
        type: status === 400 ? 'urn:museum:problem:validation' : 'about:blank',
        title: statusTitle(status),
        status,
        detail: detail ?? EXAMPLE_DETAIL[status] ?? statusTitle(status),
        // The request's path; 431 is answered before routing, at `/`.
        instance: status === 431 ? '/' : '/path/of/the/request',
      };
      if (status === 400) example.errors = [{ field: 'price', message: 'price must be a finite JSON number' }];
      return ApiResponse({
        status,
        description: description ?? WHEN[status] ?? statusTitle(status),
        headers: HEADERS[status],
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDetailsSchema) }, example } },
      });
    }),
  );
}
