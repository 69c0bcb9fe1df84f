import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import cors from 'cors';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module.js';
import type { Feature } from './features.js';
import { sendsCredentials } from './auth/presented-credentials.js';
import { crossSiteWriteRefusal } from './common/http/cross-site-writes.js';
import { escapeMalformedPercentEncoding } from './common/http/malformed-path.js';
import { isAnonymousPublicRequest, PUBLIC_CORS, publicReadPaths } from './common/http/public-read.js';
import { installRouteDefaults, routesOf } from './common/http/routes.js';
import { requestObserver } from './common/http/request-observer.js';
import { mayWaitForTurn, TurnBudget } from './common/http/turn-budget.js';
import { answeredUnservable, boundHeaderTime, deferUnmetExpectations } from './common/http/request-framing.js';
import { apiSecurityHeaderLines } from './common/http/security-headers.js';
import { directLogs, flushLogs, processLogger } from './common/logging/log-output.js';
import { PinoLoggerService } from './common/logging/pino-logger.js';
import { requestContextWanted } from './common/logging/request-context.js';
import { PROBLEM_CONTENT_TYPE, statusTitle } from './common/problem/problem.js';
import type { AppConfig } from './config/app-config.js';
import { requestDeadline } from './database/request-deadline.js';
import { HttpMetrics } from './common/http/http.metrics.js';
import { CLIENT_IPV6_PREFIX_SETTING } from './common/http/client-address.js';
import { refusesOutsideDocsPageFiles, setupOpenApi } from './openapi/openapi.js';

export interface CreateAppOptions {
  /**
   * Where the log lines go (the e2e tests capture them). Default: standard output, JSON lines,
   * pretty-printed when it is a terminal. The level is the config's LOG_LEVEL.
   */
  readonly logDestination?: DestinationStream;
  /**
   * Features beside those of src/features.ts, as one more line in that list would add them (their
   * modules and their migrations): the e2e test of "Adding a module" builds the service with a
   * feature that lives in test/.
   */
  readonly features?: readonly Feature[];
}

/**
 * Builds the application exactly as `main.ts` runs it; the e2e tests use this too, so they test
 * the production pipeline and not a look-alike. Nest's logger, from the first line of the start
 * on, is a PinoLoggerService writing to `options.logDestination` at the config's LOG_LEVEL.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  directLogs(config.logLevel, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options.features), {
    // Bodies are read after authentication, by JsonBodyReader (installRouteDefaults), never before the guard.
    bodyParser: false,
    logger: new PinoLoggerService(processLogger),
    // Errors at start reach the caller (serve.ts reports them) instead of exiting the process.
    abortOnError: false,
  });
  // Before the routes are registered (at init): see installRouteDefaults.
  installRouteDefaults(app);
  configureApp(app, config);
  return app;
}

/** Everything about the HTTP layer that is not a Nest provider. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  if (config.testMode) {
    // Before anything can answer, so that every answer says it (errors, refusals and unknown
    // routes included): a suite or a person can never mistake this instance for a real one.
    app.use((_request: Request, response: Response, next: NextFunction) => {
      response.setHeader('Museum-Test-Mode', 'on');
      next();
    });
    new Logger('TestMode').warn(
      "TEST_MODE is on: /testing/ routes can set the museum clock and empty every feature's data. Never in production.",
    );
  }
  // First of the rest, so that every request, whoever answers it (errors and unknown routes included), gets
  // an id, the security headers (strict for the JSON API, a policy that lets Swagger UI render on
  // /docs: security-headers.ts), a log line and its metrics; then what cannot be served is
  // refused (answeredUnservable) before anything else sees it.
  app.use(
    requestObserver({
      metrics: config.metricsEnabled ? app.get(HttpMetrics) : undefined,
      requestContext: requestContextWanted(config.logLevel),
      refuses: answeredUnservable,
    }),
  );
  app.disable('x-powered-by');
  // ETags are the events' versions, set by their handlers; Express would otherwise hash every
  // response body.
  app.set('etag', false);
  // A hop count or the proxies' addresses (never `true`: app-config.ts refuses it).
  app.set('trust proxy', typeof config.trustProxy === 'object' ? [...config.trustProxy] : config.trustProxy);
  // What clientAddress counts an IPv6 client by: its prefix, not its address.
  app.set(CLIENT_IPV6_PREFIX_SETTING, config.clientIpv6Prefix);
  // CORS_ORIGINS set: every request goes through CORS, since any of them may come from a listed
  // origin. Public read alone: only an anonymous public request or its preflight gets CORS
  // headers (any other gets none), so only those enter the CORS middleware, from the layer below:
  // a layer of its own and its decision were work on every request with credentials for nothing.
  if (config.corsOrigins.length > 0) app.enableCors(corsOptionsOf(app, config));
  const publicCors = config.corsOrigins.length === 0 && config.publicRead.enabled ? publicCorsOf(app) : undefined;
  // After CORS (preflights are answered there), before any route, in one layer (each layer is
  // work on every request): a write from another site's page is refused (crossSiteWriteRefusal),
  // a path that is not valid percent-encoding is escaped (escapeMalformedPercentEncoding), and
  // below /docs only the Swagger UI page's own files go on (refusesOutsideDocsPageFiles), and what
  // goes on has one deadline for all its database work (requestDeadline: as long as one statement
  // may take, its wait for a connection included, however many statements it runs). Only MySQL's
  // waits read that deadline (a pooled connection, a write slot, a statement's timeout); on SQLite
  // nothing does, and its AsyncLocalStorage context and 'close' listener were work on every request
  // for nothing (docs/performance-history.md, "Where the time went").
  const refusesCrossSiteWrite = crossSiteWriteRefusal(config.corsOrigins);
  // Last, an anonymous read starts within the turn's budget or waits for a later turn (TurnBudget),
  // and on MySQL what it does after each read is paced the same way (afterDatabaseWait); requests
  // with credentials, writes and health checks go on at once (mayWaitForTurn).
  const turns = new TurnBudget();
  const deadlineMs = config.databasePool.acquireTimeoutMs + config.databasePool.queryTimeoutMs;
  const mysql = config.database.type === 'mysql';
  const goOn = mysql
    ? requestDeadline(deadlineMs)
    : (_request: Request, _response: Response, next: NextFunction) => next();
  const goOnPaced = mysql ? requestDeadline(deadlineMs, turns) : goOn;
  const onward = (request: Request, response: Response, next: NextFunction): void => {
    if (refusesCrossSiteWrite(request, response)) return;
    escapeMalformedPercentEncoding(request);
    if (refusesOutsideDocsPageFiles(request, response)) return;
    if (mayWaitForTurn(request.method, request.url, sendsCredentials(request.headers)))
      turns.run(goOnPaced, request, response, next);
    else goOn(request, response, next);
  };
  app.use(
    publicCors === undefined
      ? onward
      : (request: Request, response: Response, next: NextFunction) => {
          if (publicCors.wanted(request)) publicCors.apply(request, response, () => onward(request, response, next));
          else onward(request, response, next);
        },
  );
  answerMalformedHttpWithProblems(app.getHttpServer() as Server, config.headersTimeoutMs);
  deferContinueToBodyReader(app.getHttpServer() as Server);
  deferUnmetExpectations(app.getHttpServer() as Server);
  boundHeaderTime(app.getHttpServer() as Server, config.headersTimeoutMs);
  setupOpenApi(app);
}

type CorsRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined> };

/**
 * CORS with public read on and CORS_ORIGINS empty: `wanted` is true for an anonymous public
 * request or its preflight, which `apply` answers as corsOptionsOf would (PUBLIC_CORS: a
 * preflight gets its 204 there); every other request would get no CORS header from it.
 */
function publicCorsOf(app: NestExpressApplication): {
  wanted: (request: CorsRequest) => boolean;
  apply: (request: Request, response: Response, next: () => void) => void;
} {
  const isPublicPath = publicReadPaths(routesOf(app));
  return {
    wanted: (request) => isAnonymousPublicRequest(request, isPublicPath, sendsCredentials),
    apply: cors(PUBLIC_CORS),
  };
}

/**
 * The CORS options of each request, with CORS_ORIGINS set. Public read (PUBLIC_READ=true): a
 * request without credentials on a public route, or its preflight, may come from any origin and
 * gets `*` (never with credentials); everything else follows CORS_ORIGINS as without it: a
 * listed origin gets CORS headers, any other origin none (but Vary: Origin). Preflights are
 * answered by the CORS middleware, 204 without credentials, so they never reach authentication.
 * Each answer is one of four objects made here once.
 */
function corsOptionsOf(
  app: NestExpressApplication,
  config: AppConfig,
): (request: CorsRequest, callback: (error: Error | null, options: CorsOptions) => void) => void {
  const isPublicPath = config.publicRead.enabled ? publicReadPaths(routesOf(app)) : () => false;
  const listed = new Set(config.corsOrigins);
  const origin = [...config.corsOrigins];
  const listedOrigin: CorsOptions = {
    origin,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id'],
    exposedHeaders: [
      'ETag',
      'Idempotent-Replayed',
      'Link',
      'Location',
      'Retry-After',
      'WWW-Authenticate',
      'X-Request-Id',
    ],
    maxAge: 600,
  };
  const otherOrigin: CorsOptions =
    origin.length > 0 ? { origin, methods: [], allowedHeaders: [], exposedHeaders: [] } : { origin: false };
  return (request, callback) =>
    callback(
      null,
      isAnonymousPublicRequest(request, isPublicPath, sendsCredentials)
        ? PUBLIC_CORS
        : listed.has(String(request.headers.origin ?? ''))
          ? listedOrigin
          : otherOrigin,
    );
}

/**
 * Node answers `Expect: 100-continue` with `100 Continue` before any handler runs, inviting the
 * body before authentication, unless the server has a 'checkContinue' listener. With this one the
 * request is handled like any other, and JsonBodyReader sends `100 Continue` once the caller is
 * authenticated and the body is wanted; any earlier answer (401, 429) goes out instead.
 */
function deferContinueToBodyReader(server: Server): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
}

/** The status and detail of a request Node's HTTP server refuses, by its error code. */
function refusal(code: string | undefined, headersTimeoutMs: number): { status: number; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, detail: 'The request headers are too large.' };
  if (code === 'HPE_URI_TOO_LONG') return { status: 414, detail: 'The request target is too long.' };
  // headersTimeout (or requestTimeout for the whole request) ran out.
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, detail: `The request did not arrive in time (headers within ${headersTimeoutMs} ms).` };
  }
  return { status: 400, detail: 'The request is not valid HTTP.' };
}

/**
 * Requests Node's HTTP parser refuses (headers too large, broken framing, too slow) never reach
 * Express; answer them with problem details too instead of a bare status line. A response already
 * under way on the socket cannot be followed by another: that connection is only closed.
 */
function answerMalformedHttpWithProblems(server: Server, headersTimeoutMs: number): void {
  const securityHeaderLines = apiSecurityHeaderLines();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const { status, detail } = refusal(error.code, headersTimeoutMs);
    const body = JSON.stringify({ type: 'about:blank', title: statusTitle(status), status, detail, instance: '/' });
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${securityHeaderLines}Connection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let requests in flight finish with their real
 * answers within `graceSeconds`, close the database, write out the log, and exit.
 *
 * Node's server.close() closes only the kept-alive connections idle at that moment; a client
 * that keeps its connection busy would be served forever and the process would never exit. So
 * once shutdown begins, every response not yet started says `Connection: close`: the client
 * gets its answer, then opens a new connection for its next request, which is refused. A client
 * that never completes a request (headers trickled a line at a time, a slow upload) would still
 * hold server.close() open for ever: `headersTimeout` bounds only a request's start. So after
 * `graceSeconds` every connection still open is closed.
 */
export function handleShutdownSignals(app: NestExpressApplication, graceSeconds: number): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  let closing = false;
  const unanswered = new Set<ServerResponse>();
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (closing) {
      response.setHeader('Connection', 'close');
      return;
    }
    unanswered.add(response);
    response.once('close', () => unanswered.delete(response));
  });
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    for (const response of unanswered) if (!response.headersSent) response.setHeader('Connection', 'close');
    logger.log(`${signal} received: finishing requests in flight, then closing`);
    const deadline = setTimeout(() => {
      logger.warn(`Grace period of ${graceSeconds} s over: closing ${connections.size} connections still open`);
      for (const socket of connections) socket.destroy();
    }, graceSeconds * 1000);
    void (async () => {
      try {
        await app.close();
        logger.log('Closed');
        process.exitCode = 0;
      } catch (error) {
        logger.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      }
      clearTimeout(deadline);
      await flushLogs();
    })();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
