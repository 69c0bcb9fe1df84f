import {
  type ArgumentsHost,
  InternalServerErrorException,
  Logger,
  MethodNotAllowedException,
  NotFoundException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import type { MockInstance } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableProblem } from '../../database/database-problems.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { PROBLEM_CONTENT_TYPE, ProblemException, validationProblem } from './problem.js';

const CHALLENGE = 'Basic realm="museum", charset="UTF-8"';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/;

/** Records what the filter does to an Express response. */
class RecordingResponse {
  headersSent = false;
  readonly headers: Record<string, string> = {};
  statusCode?: number;
  contentType?: string;
  body?: string;
  ended = false;

  setHeader(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.headers;
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  type(value: string): this {
    this.contentType = value;
    return this;
  }

  send(body: string): this {
    this.body = body;
    return this;
  }

  end(): this {
    this.ended = true;
    return this;
  }

  json(): Record<string, unknown> {
    if (this.body === undefined) throw new Error('no body was sent');
    return JSON.parse(this.body) as Record<string, unknown>;
  }
}

function hostFor(response: RecordingResponse, request: { method: string; originalUrl: string }): ArgumentsHost {
  const http = { getResponse: () => response, getRequest: () => request, getNext: () => undefined };
  return { switchToHttp: () => http } as unknown as ArgumentsHost;
}

/** Runs the filter on `exception` for a request and returns the recorded response. */
function respond(exception: unknown, originalUrl = '/special-events', method = 'POST'): RecordingResponse {
  const response = new RecordingResponse();
  new ProblemDetailsFilter([databaseUnavailableProblem]).catch(exception, hostFor(response, { method, originalUrl }));
  return response;
}

function driverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('ProblemDetailsFilter', () => {
  let errorLog: MockInstance<Logger['error']>;
  let warnLog: MockInstance<Logger['warn']>;

  beforeEach(() => {
    errorLog = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    warnLog = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers a ProblemException as it is, with its headers', () => {
    const exception = new ProblemException(401, 'Valid credentials are required.', {
      headers: { 'WWW-Authenticate': CHALLENGE },
    });
    const response = respond(exception, '/special-events/abc');
    expect(response.statusCode).toBe(401);
    expect(response.contentType).toBe(PROBLEM_CONTENT_TYPE);
    expect(response.headers).toEqual({ 'www-authenticate': CHALLENGE });
    expect(response.json()).toStrictEqual({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'Valid credentials are required.',
      instance: '/special-events/abc',
    });
    expect(errorLog).not.toHaveBeenCalled();
  });

  it('answers a validation problem with its type and every field error', () => {
    const response = respond(
      validationProblem([
        { field: 'price', message: 'price must be a finite JSON number' },
        { field: 'eventDescripton', message: 'eventDescripton is not a property of this resource' },
      ]),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toStrictEqual({
      type: 'urn:museum:problem:validation',
      title: 'Bad Request',
      status: 400,
      detail: 'The request is invalid: check price, eventDescripton.',
      instance: '/special-events',
      errors: [
        { field: 'price', message: 'price must be a finite JSON number' },
        { field: 'eventDescripton', message: 'eventDescripton is not a property of this resource' },
      ],
    });
  });

  it('lists at most the first 20 errors, each once, and says how many there were', () => {
    const errors = Array.from({ length: 25 }, (_, i) => ({
      field: `k${i}`,
      message: 'not a property of this resource',
    }));
    const body = respond(validationProblem(errors)).json();
    expect(body.errors).toStrictEqual(errors.slice(0, 20));
    expect(body.detail).toBe(
      `The request is invalid: check ${errors
        .slice(0, 20)
        .map((error) => error.field)
        .join(', ')} (25 errors; the first 20 are listed).`,
    );
  });

  it('turns the Cache-Control of a response behind credentials into no-store, and adds none elsewhere', () => {
    const cached = new RecordingResponse();
    cached.setHeader('Cache-Control', 'private, no-cache');
    new ProblemDetailsFilter([databaseUnavailableProblem]).catch(
      new ProblemException(404, 'No such event.'),
      hostFor(cached, { method: 'GET', originalUrl: '/special-events/x' }),
    );
    expect(cached.headers['cache-control']).toBe('no-store');
    expect(respond(new ProblemException(404, 'No such event.')).headers['cache-control']).toBeUndefined();
  });

  it('sets instance to the path without its query string', () => {
    const response = respond(new ProblemException(404, 'No such event.'), '/special-events/x?token=secret&a=b');
    expect(response.json().instance).toBe('/special-events/x');
    expect(response.body).not.toContain('secret');
  });

  it("answers Nest's NotFoundException with 404 and a generic text, not Nest's message", () => {
    const response = respond(new NotFoundException('Cannot GET /nope?<script>'), '/nope?<script>', 'GET');
    expect(response.statusCode).toBe(404);
    expect(response.contentType).toBe(PROBLEM_CONTENT_TYPE);
    expect(response.json()).toStrictEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No resource exists at this path.',
      instance: '/nope',
    });
  });

  it('answers a 405 from the framework with its own generic text', () => {
    const response = respond(new MethodNotAllowedException('internal detail'));
    expect(response.statusCode).toBe(405);
    expect(response.json()).toMatchObject({
      title: 'Method Not Allowed',
      detail: 'This method is not supported here.',
    });
  });

  it('answers an exposed http-errors client error (body-parser) with its status and a generic text', () => {
    const bodyParserError = Object.assign(new SyntaxError('Unexpected token } in JSON at position 3'), {
      status: 400,
      statusCode: 400,
      expose: true,
      type: 'entity.parse.failed',
      body: '{"a":}',
    });
    const response = respond(bodyParserError);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toStrictEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The request is malformed.',
      instance: '/special-events',
    });
    expect(response.body).not.toContain('Unexpected token');
    expect(errorLog).not.toHaveBeenCalled();
  });

  it('takes statusCode when an exposed error has no status', () => {
    const response = respond({ statusCode: 413, expose: true, message: 'request entity too large' });
    expect(response.statusCode).toBe(413);
    expect(response.json().detail).toBe('The request cannot be processed.');
  });

  it('does not trust a status on an error that is not marked expose', () => {
    const response = respond(Object.assign(new Error('internal'), { status: 400 }));
    expect(response.statusCode).toBe(500);
  });

  it('does not pass through a 5xx marked expose', () => {
    const response = respond({ status: 502, expose: true, message: 'upstream said no' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('upstream');
  });

  it.each([
    [
      'a QueryFailedError with SQLITE_BUSY',
      new QueryFailedError(
        'INSERT INTO "special_events" VALUES (?)',
        ['x'],
        driverError('SQLITE_BUSY', 'database is locked'),
      ),
    ],
    ['a connection refused', driverError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:3306')],
    [
      'a QueryFailedError with a lost MySQL connection',
      new QueryFailedError('SELECT 1', [], driverError('PROTOCOL_CONNECTION_LOST', 'Connection lost')),
    ],
  ])('answers %s with 503 and Retry-After, showing nothing of the driver', (_label, exception) => {
    const response = respond(exception);
    expect(response.statusCode).toBe(503);
    expect(response.contentType).toBe(PROBLEM_CONTENT_TYPE);
    expect(response.headers).toEqual({ 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
    expect(DATABASE_RETRY_AFTER_SECONDS).toBeGreaterThan(0);
    expect(response.json()).toStrictEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The service cannot reach its database right now; retry shortly.',
      instance: '/special-events',
    });
    expect(response.body).not.toMatch(/SQLITE|ECONN|PROTOCOL|INSERT|SELECT|locked|3306/);
    expect(warnLog).toHaveBeenCalledTimes(1);
    expect(errorLog).not.toHaveBeenCalled();
  });

  it('answers any other error with a bare 500 quoting a reference that is also logged', () => {
    const error = new Error('secret SQL select * from users');
    const response = respond(error, '/special-events?x=1', 'POST');
    expect(response.statusCode).toBe(500);
    expect(response.contentType).toBe(PROBLEM_CONTENT_TYPE);
    expect(response.headers).toEqual({});

    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
    expect(body).toMatchObject({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      instance: '/special-events',
    });
    const reference = UUID.exec(String(body.detail))?.[0];
    expect(reference).toBeDefined();
    expect(body.detail).toBe(`An unexpected error occurred. Quote reference ${reference} when reporting it.`);

    for (const leak of ['secret', 'SQL', 'select', 'users', 'Error:', 'stack', 'at ', '.ts', '/work/']) {
      expect(response.body).not.toContain(leak);
    }

    expect(errorLog).toHaveBeenCalledTimes(1);
    const logged = errorLog.mock.calls[0][0] as Record<string, unknown>;
    expect(logged).toMatchObject({
      msg: 'Unexpected error',
      correlationId: reference,
      method: 'POST',
      path: '/special-events',
      error: { name: 'Error', message: 'secret SQL select * from users' },
    });
  });

  it('gives every unexpected error its own reference', () => {
    const first = String(respond(new Error('a')).json().detail);
    const second = String(respond(new Error('a')).json().detail);
    expect(first).not.toBe(second);
  });

  it("answers a 500 HttpException with the generic 500, not the exception's message", () => {
    const response = respond(new InternalServerErrorException('pool exhausted at db.internal:3306'));
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('db.internal');
    expect(errorLog).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
  ])('answers a thrown non-error (%s) with 500', (_label, thrown) => {
    const response = respond(thrown);
    expect(response.statusCode).toBe(500);
    expect(response.json().status).toBe(500);
  });

  it('only ends a response whose headers were already sent', () => {
    const response = new RecordingResponse();
    response.headersSent = true;
    new ProblemDetailsFilter([databaseUnavailableProblem]).catch(
      new ProblemException(400, 'late', { headers: { 'Retry-After': '1' } }),
      hostFor(response, { method: 'GET', originalUrl: '/' }),
    );
    expect(response.ended).toBe(true);
    expect(response.statusCode).toBeUndefined();
    expect(response.body).toBeUndefined();
    expect(response.headers).toEqual({});
  });
});
