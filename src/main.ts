import { bootstrap, shutdown } from './bootstrap';
import { ConfigError, isProduction } from './config';
import { compose } from './app/compose';
import { createApp } from './app/create-app';
import { ensureDemoAccount } from './app/demo-account';
import { installGracefulShutdown } from './infra/graceful-shutdown';
import { Lifecycle } from './infra/lifecycle';
import { logUnhandledRejections } from './infra/process-errors';

async function main(): Promise<void> {
  const deps = await bootstrap();
  const { logger } = deps;
  logUnhandledRejections(logger);
  // decisions 10: production creates no demo account.
  if (!isProduction(deps.env)) await ensureDemoAccount(deps);
  deps.lifecycle = new Lifecycle();
  const app = createApp(compose(deps));
  const server = app.listen(deps.env.PORT, '0.0.0.0', () => {
    logger.info('listening', {
      port: deps.env.PORT,
      index_alias: deps.alias,
      mode: isProduction(deps.env) ? 'production' : 'local',
    });
  });
  installGracefulShutdown(server, {
    lifecycle: deps.lifecycle,
    logger,
    graceMs: deps.env.SHUTDOWN_GRACE_MS,
    release: () => shutdown(deps),
    exit: (code) => process.exit(code),
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
