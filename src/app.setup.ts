import { type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppModule } from './app.module.js';
import { escapeMalformedPercentEncoding } from './common/http/malformed-path.js';
import { PROBLEM_CONTENT_TYPE, statusTitle } from './common/problem/problem.js';
import type { AppConfig } from './config/app-config.js';
import { setupOpenApi } from './openapi/openapi.js';

/**
 * Builds the application exactly as `main.ts` runs it; the e2e tests use this too, so they test
 * the production pipeline and not a look-alike.
 */
export async function createApp(config: AppConfig, logger: LoggerService): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    // Bodies are read after authentication, by JsonBodyInterceptor, never before the guard.
    bodyParser: false,
    logger,
    // Errors at start reach the caller (main.ts reports them) instead of exiting the process.
    abortOnError: false,
  });
  configureApp(app, config);
  return app;
}

/** Everything about the HTTP layer that is not a Nest provider. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  // No handler uses ETags; Express would otherwise hash every response body.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: [...config.corsOrigins],
      methods: ['GET', 'POST', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['Location', 'Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    });
  }
  answerMalformedHttpWithProblems(app.getHttpServer() as Server);
  // Before the routes: see escapeMalformedPercentEncoding.
  app.use(escapeMalformedPercentEncoding);
  setupOpenApi(app);
}

/**
 * Requests Node's HTTP parser refuses (headers too large, broken framing) never reach Express;
 * answer them with problem details too instead of a bare status line.
 */
function answerMalformedHttpWithProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error as { code?: string }).code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
    const body = JSON.stringify({
      type: 'about:blank',
      title: statusTitle(status),
      status,
      detail: status === 431 ? 'The request headers are too large.' : 'The request is not valid HTTP.',
      instance: '/',
    });
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let requests in flight finish with their real
 * answers, close the database, and exit 0.
 */
export function handleShutdownSignals(app: NestExpressApplication, logger: LoggerService): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: finishing requests in flight, then closing`, 'Shutdown');
    app.close().then(
      () => {
        logger.log('Closed', 'Shutdown');
        process.exitCode = 0;
      },
      (error: unknown) => {
        logger.error(error instanceof Error ? error.message : String(error), undefined, 'Shutdown');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
