import { type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
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
 * Marks a handler that takes a JSON body: JsonBodyReader reads it for that handler alone, after
 * the global guards (Nest runs global guards before a handler's own): a caller without valid
 * credentials never learns whether a body would have been accepted (413, 415 and malformed-JSON
 * 400 all come after the 401). Handler-scoped, so other routes (deletes, health) never touch it.
 */
export const JsonBody = (options: { readonly mergePatch?: boolean } = {}): MethodDecorator =>
  UseGuards(options.mergePatch ? MergePatchBodyReader : JsonBodyReader);

/** Body-parser error types and the answer each gets; anything else is a server fault. */
const BODY_ERRORS: Readonly<Record<string, { status: number; detail: string }>> = {
  'entity.too.large': { status: 413, detail: `The request body must be at most ${MAX_JSON_BODY_BYTES} bytes.` },
  'entity.parse.failed': { status: 400, detail: 'The request body is not valid JSON.' },
  'entity.verify.failed': { status: 400, detail: 'The request body is not valid UTF-8.' },
  'encoding.unsupported': {
    status: 415,
    detail: 'This Content-Encoding is not supported; send identity, gzip or deflate.',
  },
  'charset.unsupported': { status: 415, detail: 'The request body must be UTF-8 JSON.' },
  'request.aborted': { status: 400, detail: 'The request body ended before its announced length.' },
  'request.size.invalid': { status: 400, detail: 'The request body does not match its Content-Length.' },
};

/**
 * Reads and checks the JSON body; it lets the request through (true) or throws its problem. A
 * guard rather than an interceptor: it must run after authentication and before the pipes, which
 * both do, but Nest runs interceptors through an rxjs pipeline that cost a measurable share of a
 * create (README → Performance), and guards as a plain awaited loop.
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

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await this.readBody(http.getRequest<Request>(), http.getResponse<Response>());
    return true;
  }

  /** Whether the body's media type is one this route reads; anything else is a 415. */
  protected accepts(contentType: string | undefined): boolean {
    return isJsonMediaType(contentType);
  }

  protected readonly unsupportedMediaType: string =
    'The request body must be JSON, sent with Content-Type: application/json.';

  private readBody(request: Request, response: Response): Promise<void> {
    if (!this.accepts(request.headers['content-type'])) {
      return Promise.reject(new ProblemException(415, this.unsupportedMediaType));
    }
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

/**
 * The reader of an update: a JSON merge patch (RFC 7396, `application/merge-patch+json`) or
 * plain `application/json` (the Museum API's), read the same way. Only routes that apply a patch
 * use it, so a create sent as a merge patch stays a 415.
 */
@Injectable()
export class MergePatchBodyReader extends JsonBodyReader {
  protected override accepts(contentType: string | undefined): boolean {
    return isJsonMediaType(contentType) || isJsonMediaType(contentType, MERGE_PATCH_MEDIA_TYPE);
  }

  protected override readonly unsupportedMediaType: string =
    'The request body must be JSON, sent with Content-Type: application/merge-patch+json or application/json.';
}

export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';

/** `application/json` (or `mediaType`), any letter case, with at most a UTF-8 charset parameter. */
export function isJsonMediaType(header: string | undefined, wanted = 'application/json'): boolean {
  if (header === undefined) return false;
  const [mediaType, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== wanted) return false;
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
