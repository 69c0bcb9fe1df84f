/**
 * What the references share: the line the benchmark waits for and a shutdown that keep-alive
 * connections of the load generator cannot hold up (announce, also the Express baseline's), and
 * for the Nest ones (nest-floor.ts, mandated-floor.ts) the baseline's Express settings.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';

/**
 * Writes `Listening on http://127.0.0.1:<port>` and, on SIGTERM/SIGINT, drops every connection,
 * then `close`s, then exits 0.
 */
export function announce(server: Server, close: () => Promise<void>): void {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`Listening on http://127.0.0.1:${port}\n`);
  const shutdown = (): void => {
    server.closeAllConnections();
    void close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/**
 * Applies the baseline's settings, listens on 127.0.0.1 at PORT (default 0: any free port) and
 * announces it; a shutdown closes the app, then `afterClose`.
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
  announce(app.getHttpServer() as Server, () => app.close().then(afterClose));
}
