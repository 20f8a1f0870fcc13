import { bootstrap, shutdown } from './bootstrap';
import { ConfigError } from './config';
import { createApp } from './http/app';
import { ensureDemoAccount } from './infra/demo-account';

async function main(): Promise<void> {
  const deps = await bootstrap();
  await ensureDemoAccount(deps);
  const app = createApp(deps);
  const server = app.listen(deps.env.PORT, '0.0.0.0', () => {
    deps.logger.info('listening', { port: deps.env.PORT, index_alias: deps.alias });
  });
  const stop = () => {
    server.close(() => void shutdown(deps).then(() => process.exit(0)));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
