import { ConfigError, loadConfig } from './config';
import { logger } from './logger';
import { startServer } from './server';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const server = await startServer(config);
  logger.info(`PartsYard is ready on http://localhost:${server.port}`, {
    mode: config.mode,
    database: server.database.kind,
    payments: config.stripe ? 'stripe' : 'test gateway',
    authEmulator: config.firebase.emulatorHost ?? null,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing requests in flight, then stopping`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
