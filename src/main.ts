import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, handleShutdownSignals } from './app.setup.js';
import { ConfigError, loadConfig } from './config/app-config.js';

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
  // Nest's static logger: the app's own (createApp's PinoLoggerService).
  const logger = new Logger('Main');
  try {
    const app = await createApp(config);
    handleShutdownSignals(app);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.log(`Listening on http://${config.host}:${port} (database: ${config.database.type})`);
  } catch (error) {
    logger.error({ msg: 'Failed to start', error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

await main();
