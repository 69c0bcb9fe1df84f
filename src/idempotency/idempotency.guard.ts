import { type CanActivate, type ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { hash } from 'node:crypto';
import { PreparedResponse } from '../common/http/prepared-response.js';
import { ProblemException } from '../common/problem/problem.js';
import { IdempotencyStore, type StoredResponse } from './idempotency.store.js';
import { canonicalJson } from './canonical-json.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** 1 to 255 visible ASCII characters (issue 19). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** The response headers a replay repeats; the rest (request id, security headers) are per request. */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'cache-control'] as const;

/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) for the handler it guards
 * (@Idempotent()). It runs after authentication and after the body is read, before validation
 * and the handler. Without the header it does nothing beyond one header lookup.
 *
 * With one: the key is claimed for this user (IdempotencyStore). The same request again gets the
 * kept response, byte for byte, with `Idempotent-Replayed: true`, and the handler does not run; a
 * different request with the key is a 422; a request while the first is in flight a 409. The
 * claimed request's response is kept when it succeeded (2xx/3xx); any error changed nothing (all
 * 4xx of this service are decided before or by a write that did not happen) or has an unknown
 * outcome that a retry must be allowed to settle (503, 500): the key is released for a retry.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: { username: string } }>();
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return true;
    return this.begin(request, context.switchToHttp().getResponse<Response>(), key);
  }

  private async begin(
    request: Request & { user?: { username: string } },
    response: Response,
    key: string | string[],
  ): Promise<boolean> {
    if (typeof key !== 'string' || !VALID_KEY.test(key)) {
      throw new ProblemException(
        400,
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters, sent once.',
      );
    }
    const username = request.user?.username;
    // Every idempotent route is authenticated; a route that is not is a programming error.
    if (username === undefined) throw new Error('@Idempotent() needs an authenticated route');
    const claim = await this.store.claim(username, key, fingerprint(request));
    switch (claim.outcome) {
      case 'mismatch':
        throw new ProblemException(
          422,
          'This Idempotency-Key was already used for a different request; use a new key.',
        );
      case 'in-flight':
        throw new ProblemException(409, 'A request with this Idempotency-Key is still being processed; retry shortly.');
      case 'replay':
        throw new PreparedResponse(
          claim.response.status,
          { ...claim.response.headers, [REPLAYED_HEADER]: 'true' },
          claim.response.body,
        );
      case 'claimed':
        this.settleOnEnd(response, username, key, claim.claim);
        return true;
    }
  }

  /**
   * Holds the response back until its outcome is in the database: kept for replay, or the key
   * released. A failure there is logged and the response still goes out (the request itself is
   * done); the key then stays in flight until IDEMPOTENCY_IN_FLIGHT_SECONDS have passed.
   */
  private settleOnEnd(response: Response, username: string, key: string, claim: string): void {
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    response.end = ((...args: unknown[]) => {
      response.end = end as Response['end'];
      const status = response.statusCode;
      const settle =
        status < 400
          ? this.store.complete(username, key, claim, captured(response, args))
          : this.store.release(username, key, claim);
      settle.then(
        () => end(...args),
        (error: unknown) => {
          this.logger.warn({
            msg: 'Could not record the outcome of an idempotent request',
            status,
            code: errorCode(error),
          });
          end(...args);
        },
      );
      return response;
    }) as Response['end'];
  }
}

/**
 * Method, path (with query), the If-Match precondition (another precondition is another request)
 * and the body as parsed, in canonical form, so that neither formatting nor the order of its
 * members matters (a client that reorders them on a retry still gets its first answer).
 */
function fingerprint(request: Request): string {
  const ifMatch = request.headers['if-match'] ?? '';
  return hash(
    'sha256',
    `${request.method}\n${request.originalUrl}\n${ifMatch}\n${canonicalJson(request.body ?? null)}`,
    'hex',
  );
}

/** The status, kept headers and body of a response about to be ended with `args`. */
function captured(response: Response, args: unknown[]): StoredResponse {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  const [chunk, encoding] = args;
  const body =
    typeof chunk === 'string'
      ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8').toString('utf8')
      : Buffer.isBuffer(chunk)
        ? chunk.toString('utf8')
        : '';
  return { status: response.statusCode, headers, body };
}

function errorCode(error: unknown): unknown {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return driverError?.code ?? code;
}
