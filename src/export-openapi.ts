import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from './app.setup.js';
import { loadConfig } from './config/app-config.js';
import { buildOpenApiDocument } from './openapi/openapi.js';

/**
 * Writes the OpenAPI document the service serves at /openapi.json to a file, without a server:
 * `node dist/export-openapi.js [path]` (default `openapi.json`). The app is built as
 * main.ts builds it, on an in-memory SQLite database, and never listens. It is not initialised
 * either (no `app.init()`), so no start-up hook runs: no admin user is created or printed.
 */
async function exportOpenApi(path: string): Promise<void> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const app = await createApp(config);
  try {
    const document = buildOpenApiDocument(app);
    writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
  } finally {
    await app.close();
  }
  process.stdout.write(`OpenAPI document written to ${path}\n`);
}

await exportOpenApi(resolve(process.argv[2] ?? 'openapi.json'));
