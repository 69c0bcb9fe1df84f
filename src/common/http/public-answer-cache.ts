import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ifNoneMatchFound } from './entity-tags.js';
import { PreparedResponse } from './prepared-response.js';
import { isAnonymousRead } from './public-read.js';
import { UrlSightings } from './url-sightings.js';

export interface PublicAnswerCacheOptions {
  /** How long an answer is served without asking its handler (at most the public max-age). */
  readonly ttlMs: number;
  readonly maxEntries?: number;
  /** Bytes of bodies held in all; an answer larger than maxEntryBytes is never kept. */
  readonly maxBytes?: number;
  readonly maxEntryBytes?: number;
  /** How long a first read of a URL counts, so that a second one is kept (default 10 × ttlMs). */
  readonly sightMs?: number;
  readonly now?: () => number;
}

/** The headers of an anonymous answer that its handler sets (the middleware's are set on every request). */
const KEPT_HEADERS = ['etag', 'cache-control', 'vary', 'link', 'content-type'] as const;

interface Answer {
  readonly etag: string;
  readonly expiresAt: number;
  /** KEPT_HEADERS but content-type, as the handler set them. */
  readonly headers: readonly (readonly [string, string])[];
  /** The 200's body and type; absent when only a 304 was seen (the tag is still known current). */
  readonly body?: Buffer;
  readonly contentType?: string;
}

/**
 * Anonymous public reads answered again from memory, for at most `ttlMs` (one second at most, and
 * never longer than PUBLIC_CACHE_MAX_AGE: an answer that may already be that old in any shared
 * cache, by the contract of its Cache-Control). Keyed by the URL as sent (path and query); only
 * requests that public read let in without credentials are looked up or kept, so an answer with
 * credentials, which holds more fields, is never in it. What is kept is the handler's answer
 * itself: a 200 (its headers and body), or a 304 (its headers: the tag is current). A hit sends a
 * 304 when If-None-Match names the tag, else the kept body, without running the handler, its
 * validation or its database reads. A request that may write (not GET or HEAD) empties the cache
 * when it ends, and an answer that was computed while one ended is not kept, so this instance's
 * own writes are seen at once; another instance's within `ttlMs`. Bounded in entries and in bytes;
 * the oldest answer goes first.
 *
 * An answer is kept on a URL's second read within `sightMs`, not its first (a CDN's "cache on
 * second hit"): a URL read once, as in a flood of new URLs, costs no copy of its answer and no
 * memory held past a young-generation collection, which made such a read 19 µs of garbage
 * collection dearer than one with credentials. A URL read again is kept from then on, also
 * after a write emptied the memory. A read counts for sightMs; the reads are remembered in a
 * table of at least 4 × maxEntries slots that holds hashes, not URLs (UrlSightings).
 *
 * It is a guard, registered after the rate limit's (so a read answered from it is still counted),
 * not an interceptor: a global interceptor would put every request of every route through rxjs.
 * A hit is thrown as a PreparedResponse, which the problem filter sends as it is.
 */
export class PublicAnswerCache implements CanActivate {
  private readonly answers = new Map<string, Answer>();
  /** The URLs read once without their answer being kept, and until when that counts. */
  private readonly sighted: UrlSightings;
  private bytes = 0;
  /** Bumped by every write that ends: an answer begun before it is not kept. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  private readonly sightMs: number;
  private readonly now: () => number;

  constructor(options: PublicAnswerCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024;
    this.sightMs = options.sightMs ?? 10 * options.ttlMs;
    this.now = options.now ?? Date.now;
    this.sighted = new UrlSightings(4 * this.maxEntries);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.getArgByIndex<Request>(0);
    const response = context.getArgByIndex<Response>(1);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.once('finish', this.clear);
      response.once('close', this.clear);
      return true;
    }
    if (!isAnonymousRead(request)) return true;
    const key = request.originalUrl;
    const answer = this.answers.get(key);
    if (answer !== undefined && answer.expiresAt > this.now()) {
      const ifNoneMatch = request.headers['if-none-match'];
      const notModified = ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, answer.etag);
      if (notModified || answer.body !== undefined) {
        throw new KeptAnswer(() => this.send(answer, notModified, request, response));
      }
    }
    if (request.method === 'GET' && (answer !== undefined || this.seenBefore(key))) this.keepWhatIsSent(key, response);
    return true;
  }

  /** Whether the URL was read within sightMs before; remembers this read either way (a write's clear keeps it). */
  private seenBefore(key: string): boolean {
    const now = this.now();
    return this.sighted.seen(key, now, now + this.sightMs);
  }

  /** Forgets every answer (a write ended, which may have changed any of them). */
  readonly clear = (): void => {
    this.generation++;
    this.answers.clear();
    this.bytes = 0;
  };

  private send(answer: Answer, notModified: boolean, request: Request, response: Response): void {
    for (const [name, value] of answer.headers) response.setHeader(name, value);
    if (notModified) {
      response.status(304).end();
      return;
    }
    const body = answer.body as Buffer;
    response.status(200);
    if (answer.contentType !== undefined) response.setHeader('Content-Type', answer.contentType);
    response.setHeader('Content-Length', body.length);
    if (request.method === 'HEAD') response.end();
    else response.end(body);
  }

  /** Watches what the handler sends, and keeps it once it is all sent, if it is a 200 or a 304. */
  private keepWhatIsSent(key: string, response: Response): void {
    const generation = this.generation;
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: unknown, encoding: unknown): void => {
      if (size > this.maxEntryBytes || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size <= this.maxEntryBytes) chunks.push(buffer);
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    response.write = ((...args: unknown[]) => {
      take(args[0], args[1]);
      return write(...args);
    }) as Response['write'];
    response.end = ((...args: unknown[]) => {
      take(args[0], args[1]);
      response.write = write as Response['write'];
      response.end = end as Response['end'];
      if (generation === this.generation && size <= this.maxEntryBytes) this.keep(key, response, chunks);
      return end(...args);
    }) as Response['end'];
  }

  private keep(key: string, response: Response, chunks: readonly Buffer[]): void {
    const status = response.statusCode;
    const etag = response.getHeader('etag');
    if ((status !== 200 && status !== 304) || typeof etag !== 'string') return;
    const headers: [string, string][] = [];
    let contentType: string | undefined;
    for (const name of KEPT_HEADERS) {
      const value = response.getHeader(name);
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : String(value);
      if (name === 'content-type') contentType = text;
      else headers.push([name, text]);
    }
    const earlier = this.answers.get(key);
    // A 304 says the tag is current: a body kept with the same (strong) tag is current too.
    const body = status === 200 ? Buffer.concat(chunks) : earlier?.etag === etag ? earlier.body : undefined;
    this.forget(key);
    const answer: Answer = {
      etag,
      expiresAt: this.now() + this.ttlMs,
      headers,
      body,
      contentType: status === 200 ? contentType : earlier?.contentType,
    };
    this.answers.set(key, answer);
    this.bytes += body?.length ?? 0;
    while (this.answers.size > this.maxEntries || this.bytes > this.maxBytes) {
      this.forget(this.answers.keys().next().value as string);
    }
  }

  private forget(key: string): void {
    const answer = this.answers.get(key);
    if (answer === undefined) return;
    this.bytes -= answer.body?.length ?? 0;
    this.answers.delete(key);
  }
}

/** A kept answer, sent by the problem filter in the handler's place. */
class KeptAnswer extends PreparedResponse {
  constructor(private readonly sendKept: () => void) {
    super(200, {}, '');
  }

  override send(): void {
    this.sendKept();
  }
}
