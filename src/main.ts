import 'reflect-metadata';
import { createApp, handleShutdownSignals } from './app.setup.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { createPino, PinoLoggerService } from './common/logging/pino-logger.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new PinoLoggerService(createPino(config.logLevel));
  try {
    const app = await createApp(config, logger);
    handleShutdownSignals(app, logger);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.log(`Listening on http://${config.host}:${port} (database: ${config.database.type})`, 'Main');
  } catch (error) {
    logger.error({ msg: 'Failed to start', error: error instanceof Error ? error.message : String(error) }, 'Main');
    process.exit(1);
  }
}

await main();
