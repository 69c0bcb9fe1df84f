import type { Params } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp, type HttpLogger, type Options } from 'pino-http';
import { processLogger } from './log-output.js';
import { routePattern } from './route-pattern.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming request id is kept only when it is short, printable and safe in any log or header. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when valid (so a request can be followed across
 * services), else a new UUID. Set on the response at once, so every answer carries it, problem
 * responses included.
 */
export function requestIdOf(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The fields of the one line logged per request, when its response is finished. */
export interface RequestLogFields {
  method: string | undefined;
  route: string;
  status: number;
  latencyMs: number;
  /** The authenticated caller, when there is one (the Basic guard sets `request.user`). */
  user?: string;
}

function requestLogFields(request: IncomingMessage, response: ServerResponse, latencyMs: number): RequestLogFields {
  const fields: RequestLogFields = {
    method: request.method,
    route: routePattern(request),
    status: response.statusCode,
    latencyMs,
  };
  const user = (request as { user?: { username?: unknown } }).user?.username;
  if (typeof user === 'string') fields.user = user;
  return fields;
}

/**
 * Allowlists: what a log line may show of a request or a response if one is ever logged. Never
 * headers (Authorization, Cookie, Set-Cookie), query strings or bodies.
 */
function serializeRequest(request: IncomingMessage & { id?: unknown }): object {
  const url = request.url ?? '';
  const queryAt = url.indexOf('?');
  return { id: request.id, method: request.method, path: queryAt === -1 ? url : url.slice(0, queryAt) };
}

function serializeResponse(response: ServerResponse): object {
  return { statusCode: response.statusCode };
}

/**
 * Per request: an id (`requestId`, bound to every line logged while handling it) and, once the
 * response is finished, one line with method, route pattern, status, latency and user.
 * `quietReqLogger`/`quietResLogger` keep the request and response objects out of the lines.
 */
function requestLoggerOptions(): Options {
  return {
    logger: processLogger,
    genReqId: requestIdOf,
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: serializeRequest, res: serializeResponse },
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (request, response, value: { responseTime: number }) =>
      requestLogFields(request, response, value.responseTime),
    customErrorObject: (request, response, _error, value: { responseTime: number }) =>
      requestLogFields(request, response, value.responseTime),
  };
}

/**
 * The request logger (pino-http), mounted by configureApp before anything else: Nest mounts
 * module middleware after what configureApp adds (CORS, the OpenAPI routes), which would then go
 * unlogged and without an id.
 */
export function createRequestLogger(): HttpLogger {
  return pinoHttp(requestLoggerOptions());
}

/**
 * nestjs-pino's parameters: `useExisting`, so that it takes each request's logger from the one
 * above (`req.log`) and makes it the logger of everything logged while handling the request.
 */
export function requestLoggingParams(): Params {
  return { pinoHttp: requestLoggerOptions(), useExisting: true };
}
