import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { forbidCachingOfError } from '../http/cache-policy.js';
import { PreparedResponse } from '../http/prepared-response.js';
import { shownPathOf } from '../http/shown-path.js';
import { requestIdOf } from '../logging/request-logging.js';
import { PROBLEM_CONTENT_TYPE, ProblemException } from './problem.js';
import type { ProblemTranslator } from './problem-translator.js';

const GENERIC_DETAIL: Readonly<Record<number, string>> = {
  400: 'The request is malformed.',
  404: 'No resource exists at this path.',
  405: 'This method is not supported here.',
};

/**
 * Turns every error into an RFC 9457 problem-details response (APP_FILTER), except a
 * PreparedResponse, which is sent as it is (a replayed idempotent response). Errors the service
 * raises on purpose carry their answer; client errors from the framework keep their status with a
 * generic text; an error one of the `translators` knows (an unavailable database: 503 with
 * Retry-After) gets its answer; anything else is logged with a correlation id and answered with a
 * bare 500 that shows nothing internal.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly translators: Iterable<ProblemTranslator> = []) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (exception instanceof PreparedResponse && !response.headersSent) {
      exception.send(response);
      return;
    }
    const problem = this.toProblemException(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    forbidCachingOfError(response);
    for (const [name, value] of Object.entries(problem.headers)) response.setHeader(name, value);
    // A body still arriving (a refused upload, a 401 before the body is read) would otherwise be
    // read to its end, however large or slow, to keep the connection: close it instead. Node then
    // writes `Connection: close` where it writes it for a client that asked for it, so the 401s
    // stay identical header for header.
    if (!request.complete) response.shouldKeepAlive = false;
    response
      .status(problem.getStatus())
      .type(PROBLEM_CONTENT_TYPE)
      .send(JSON.stringify(problem.toProblem(shownPathOf(request))));
  }

  toProblemException(exception: unknown, request: Request): ProblemException {
    if (exception instanceof ProblemException) return exception;
    const clientStatus = clientErrorStatus(exception);
    if (clientStatus !== null) {
      return new ProblemException(clientStatus, GENERIC_DETAIL[clientStatus] ?? 'The request cannot be processed.');
    }
    for (const translate of this.translators) {
      const translated = translate(exception, request);
      if (translated !== undefined) return translated;
    }
    const correlationId = randomUUID();
    this.logger.error({
      msg: 'Unexpected error',
      requestId: requestIdOf(request),
      correlationId,
      method: request.method,
      path: shownPathOf(request),
      error: describe(exception),
    });
    return new ProblemException(
      500,
      `An unexpected error occurred. Quote reference ${correlationId} when reporting it.`,
    );
  }
}

/** The status of a framework or Express client error (4xx), or null. */
function clientErrorStatus(exception: unknown): number | null {
  let status: unknown;
  if (exception instanceof HttpException) status = exception.getStatus();
  else if (exception !== null && typeof exception === 'object') {
    const candidate = exception as { status?: unknown; statusCode?: unknown; expose?: unknown };
    // http-errors (Express, body-parser) marks client errors safe to expose.
    if (candidate.expose === true) status = candidate.status ?? candidate.statusCode;
  }
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

function errorCode(exception: unknown): unknown {
  const error = exception as { code?: unknown; driverError?: { code?: unknown } } | null;
  return error?.driverError?.code ?? error?.code;
}

/** What is safe and useful to log about an error: never query parameters (they hold user data). */
function describe(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof Error)) return { value: String(exception) };
  return { name: exception.name, message: exception.message, code: errorCode(exception), stack: exception.stack };
}
