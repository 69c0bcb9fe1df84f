import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestLineLogger } from './log-output.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming request id is kept only when it is short, printable and safe in any log or header. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

interface IdentifiedRequest extends IncomingMessage {
  id?: string;
}

/**
 * Gives the request its id: the caller's `X-Request-Id` when valid (so a request can be followed
 * across services), else a new UUID. Set on the response at once, so every answer carries it,
 * problem responses included, and kept on the request for `requestIdOf`.
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  (request as IdentifiedRequest).id = id;
  return id;
}

/** The id `assignRequestId` gave the request (undefined for one that never went through it). */
export function requestIdOf(request: IncomingMessage): string | undefined {
  return (request as IdentifiedRequest).id;
}

/** The fields of the one line logged per request, when its response is finished. */
export interface RequestLogFields {
  requestId: string;
  method: string | undefined;
  route: string;
  /** The status sent; absent when the client went away before the response's headers were sent. */
  status?: number;
  /** True when the client went away before the response was finished. */
  aborted?: true;
  latencyMs: number;
  /** The authenticated caller, when there is one (the Basic guard sets `request.user`). */
  user?: string;
}

/** How a request ended, as the request observer saw it. */
export interface RequestOutcome {
  readonly requestId: string;
  /** The route pattern (routePattern), never the raw path. */
  readonly route: string;
  readonly latencyMs: number;
  /** False when the connection closed before the response was finished. */
  readonly finished: boolean;
}

/**
 * The request's one line: method, route pattern (never the raw path), status, latency in whole
 * milliseconds and user; 5xx at error level. Built from an allowlist, so nothing of the request
 * that is not named here (headers, query string, body) can reach it. Logged when the response is
 * finished, or when the connection closed first ("request aborted", `aborted: true`, and a status
 * only if one was sent: before that, `response.statusCode` is Node's default 200, never an answer).
 */
export function logRequestLine(
  request: IncomingMessage,
  response: ServerResponse,
  { requestId, route, latencyMs, finished }: RequestOutcome,
): void {
  const status = finished || response.headersSent ? response.statusCode : undefined;
  const fields: RequestLogFields = { requestId, method: request.method, route, latencyMs: Math.round(latencyMs) };
  if (status !== undefined) fields.status = status;
  if (!finished) fields.aborted = true;
  const user = (request as { user?: { username?: unknown } }).user?.username;
  if (typeof user === 'string') fields.user = user;
  if (status !== undefined && status >= 500) requestLineLogger.error(fields, 'request errored');
  else requestLineLogger.info(fields, finished ? 'request completed' : 'request aborted');
}
