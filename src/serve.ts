import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { setFlagsFromString } from 'node:v8';
import { createApp, handleShutdownSignals } from './app.setup.js';
import { checkAdminConfig } from './auth/admin-bootstrap.js';
import { type AppConfig, ConfigError, loadConfig } from './config/app-config.js';

/**
 * Under load, V8 lets the old generation grow to up to four times the live heap between full
 * collections, which showed as RSS far above what the service holds. 1.75 times the live heap
 * gives more but smaller full collections and no measurable change in GC time (the figures are
 * in docs/performance-history.md). A `--heap-growing-percent` given to node on the command line wins
 * (NODE_OPTIONS cannot carry it; `=0` restores V8's adaptive factor).
 */
function boundHeapGrowth(): void {
  if (process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return;
  setFlagsFromString('--heap-growing-percent=75');
}

/** The validated configuration of `env`; an invalid one ends the process with its message. */
export function configOrExit(env: Readonly<Record<string, string | undefined>>): AppConfig {
  try {
    const config = loadConfig(env);
    checkAdminConfig(config.admin);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Starts the service with `config` and serves until a signal; a failed start ends the process. */
export async function serve(config: AppConfig): Promise<void> {
  boundHeapGrowth();
  // Nest's static logger: the app's own (createApp's PinoLoggerService).
  const logger = new Logger('Main');
  try {
    const app = await createApp(config);
    handleShutdownSignals(app, config.shutdownGraceSeconds);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.log(`Listening on http://${config.host}:${port} (database: ${config.database.type})`);
  } catch (error) {
    logger.error({ msg: 'Failed to start', error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}
