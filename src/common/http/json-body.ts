import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { isUtf8 } from 'node:buffer';
import { ProblemException } from '../problem/problem.js';

export const MAX_JSON_BODY_BYTES = 256 * 1024;
/**
 * Deeper than any valid body (the deepest is an object holding an array). class-transformer and
 * class-validator recurse once per level: a 256 KiB body of brackets would overflow the stack (500).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The content codings a body may come in. body-parser decodes whatever the running Node's zlib
 * can (zstd too on Node 24, not on 22): the list is fixed here so that every supported Node
 * answers the same.
 */
const CONTENT_CODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/** Body-parser error types and the answer each gets; anything else is a server fault. */
const BODY_ERRORS: Readonly<Record<string, { status: number; detail: string }>> = {
  'entity.too.large': { status: 413, detail: `The request body must be at most ${MAX_JSON_BODY_BYTES} bytes.` },
  'entity.parse.failed': { status: 400, detail: 'The request body is not valid JSON.' },
  'entity.verify.failed': { status: 400, detail: 'The request body is not valid UTF-8.' },
  'encoding.unsupported': {
    status: 415,
    detail: 'This Content-Encoding is not supported; send identity, gzip, deflate or br.',
  },
  'charset.unsupported': { status: 415, detail: 'The request body must be UTF-8 JSON.' },
  'request.aborted': { status: 400, detail: 'The request body ended before its announced length.' },
  'request.size.invalid': { status: 400, detail: 'The request body does not match its Content-Length.' },
};

/**
 * Reads and checks the JSON body; it lets the request through (true) or throws its problem.
 * installRouteDefaults (routes.ts) gives it to every handler that takes `@Body()`, as that
 * handler's own guard: it runs after the global guards, so a caller without valid credentials
 * never learns whether a body would have been accepted (413, 415 and malformed-JSON 400 all come
 * after the 401), and other routes (deletes, health) never touch it. A guard rather than an
 * interceptor: it must run after authentication and before the pipes, which both do, but Nest
 * runs interceptors through an rxjs pipeline that cost a measurable share of a create
 * (docs/performance-history.md), and guards as a plain awaited loop.
 *
 * The media types it accepts are the handler's `@ApiConsumes(...)`, so that the document and the
 * service agree (e.g. `application/merge-patch+json` for a PATCH); without it, application/json.
 */
@Injectable()
export class JsonBodyReader implements CanActivate {
  private readonly parse: RequestHandler = express.json({
    limit: MAX_JSON_BODY_BYTES,
    strict: true,
    type: () => true, // the media type is checked below, so that a wrong one is a 415
    // JSON is UTF-8 (RFC 8259); the decoder would silently turn invalid bytes into U+FFFD and the
    // event would be stored altered. Refused as entity.verify.failed, i.e. 400.
    verify: (_request, _response, body) => {
      if (!isUtf8(body)) throw new Error('The request body is not UTF-8.');
    },
  });

  /** Each handler's accepted media types, looked up once. */
  private readonly mediaTypes = new WeakMap<object, readonly string[]>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await this.readBody(
      http.getRequest<Request>(),
      http.getResponse<Response>(),
      this.mediaTypesOf(context.getHandler()),
    );
    return true;
  }

  private mediaTypesOf(handler: object): readonly string[] {
    let types = this.mediaTypes.get(handler);
    if (types === undefined) {
      const declared = Reflect.getMetadata(DECORATORS.API_CONSUMES, handler) as string[] | undefined;
      types = declared?.length ? declared.map((type) => type.toLowerCase()) : ['application/json'];
      this.mediaTypes.set(handler, types);
    }
    return types;
  }

  private readBody(request: Request, response: Response, mediaTypes: readonly string[]): Promise<void> {
    if (!isJsonMediaType(request.headers['content-type'], mediaTypes)) {
      return Promise.reject(
        new ProblemException(415, `The request body must be JSON, sent with Content-Type: ${mediaTypes.join(' or ')}.`),
      );
    }
    const coding = (request.headers['content-encoding'] ?? '').trim().toLowerCase() || 'identity';
    if (!CONTENT_CODINGS.has(coding)) {
      const { status, detail } = BODY_ERRORS['encoding.unsupported'];
      return Promise.reject(new ProblemException(status, detail));
    }
    // The client waits for this before sending the body (see deferContinueToBodyReader).
    if (request.headers.expect?.toLowerCase() === '100-continue') response.writeContinue();
    return new Promise((resolve, reject) => {
      this.parse(request, response, (error?: unknown) => {
        if (error === undefined) {
          if (!nestsDeeperThan(request.body, MAX_JSON_DEPTH)) return resolve();
          return reject(new ProblemException(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`));
        }
        const known = BODY_ERRORS[(error as { type?: string }).type ?? ''];
        reject(known ? new ProblemException(known.status, known.detail) : error);
      });
    });
  }
}

/** One of `mediaTypes` (lower case), any letter case, with at most a UTF-8 charset parameter. */
export function isJsonMediaType(
  header: string | undefined,
  mediaTypes: readonly string[] = ['application/json'],
): boolean {
  if (header === undefined) return false;
  const [mediaType, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  if (!mediaTypes.includes(mediaType)) return false;
  return parameters.every((parameter) => {
    if (parameter === '') return true;
    const [name, rawValue = ''] = parameter.split('=').map((part) => part.trim());
    if (name !== 'charset') return true;
    const charset = rawValue.replace(/^"(.*)"$/, '$1');
    return charset === 'utf-8' || charset === 'utf8';
  });
}

/** True when arrays/objects in `value` nest more than `max` levels (iterative: no recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
