/**
 * What the Nest references (nest-floor.ts, mandated-floor.ts) share: the baseline's
 * Express settings, listening on 127.0.0.1 with the line the benchmark waits for, and a shutdown
 * that keep-alive connections of the load generator cannot hold up.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';

/**
 * Applies the baseline's settings, listens on 127.0.0.1 at PORT (default 0: any free port),
 * writes `Listening on http://127.0.0.1:<port>`, and on SIGTERM/SIGINT closes the app, then
 * `afterClose`, then exits 0.
 */
export async function serveReference(
  app: NestExpressApplication,
  afterClose: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  app.disable('x-powered-by');
  // Like the baseline: Express would otherwise hash every response body for an ETag.
  app.set('etag', false);
  // Registered before init, it replaces Nest's default JSON parser (also express.json) so the limit
  // matches the baseline's; Nest still adds its default urlencoded parser, which JSON requests skip.
  app.useBodyParser('json', { limit: '256kb' });
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');

  const server = app.getHttpServer() as Server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`Listening on http://127.0.0.1:${port}\n`);

  const shutdown = (): void => {
    // Like the baseline: keep-alive connections of the load generator must not hold the exit.
    server.closeAllConnections();
    void app
      .close()
      .then(afterClose)
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
