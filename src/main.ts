import { bootstrap, shutdown } from './bootstrap';
import { inspect } from 'node:util';
import { ConfigError, isProduction } from './config';
import { searchAuthentication } from './config/connections';
import { compose } from './app/compose';
import { createApp } from './app/create-app';
import { createHttpServer, listen } from './app/http-server';
import { ensureDemoAccount } from './app/demo-account';
import { installGracefulShutdown } from './infra/graceful-shutdown';
import { Lifecycle } from './infra/lifecycle';
import { IndexFollower } from './search/index-follower';
import { logUnhandledRejections } from './infra/process-errors';
import { redactString, withoutCredentials } from './infra/redact';
import { UpstreamRefusedError } from './infra/upstream-refusal';
import { staleMappingWarning } from './search/index-definition';
import { reindex } from './search/sync';

async function main(): Promise<void> {
  const deps = await bootstrap();
  const { logger } = deps;
  logUnhandledRejections(logger);
  // An index built by older code lacks fields the code queries (keyword search, rate statistics)
  // until a reindex. Production leaves the move to the operator (`cli reindex`, docs/search.md);
  // local mode brings everything up itself, so it rebuilds behind the alias in the background (the
  // old index serves until the atomic swap).
  const stale = await staleMappingWarning(deps.search, deps.alias).catch(() => null);
  if (stale && isProduction(deps.env)) {
    logger.warn('index mapping is older than the code', { detail: stale });
  } else if (stale) {
    logger.warn('index mapping is older than the code; rebuilding it in the background', {
      detail: stale,
    });
    void reindex(deps).then(
      (done) => logger.info('index rebuilt with the current mapping', { index: done.index }),
      (err: unknown) =>
        logger.error('index rebuild failed; run `npm run cli -- reindex`', {
          error: err instanceof Error ? err.message : String(err),
        }),
    );
  }
  // contract §22.4: production creates no demo account.
  if (!isProduction(deps.env)) await ensureDemoAccount(deps);
  deps.lifecycle = new Lifecycle();
  const server = createHttpServer(createApp(compose(deps)), deps.env);
  await listen(server, deps.env.PORT, '0.0.0.0');
  logger.info('listening', {
    port: deps.env.PORT,
    index_alias: deps.alias,
    mode: isProduction(deps.env) ? 'production' : 'local',
    // Where and how it connected, never a secret.
    opensearch: deps.env.OPENSEARCH_URL ? withoutCredentials(deps.env.OPENSEARCH_URL) : 'local',
    opensearch_auth: searchAuthentication(deps.env),
  });
  // contract §22.8: the index follows the store by itself (SYNC_INTERVAL_MS; 0: off).
  const follower = new IndexFollower(deps, deps.env.SYNC_INTERVAL_MS, logger).start();
  installGracefulShutdown(server, {
    lifecycle: deps.lifecycle,
    logger,
    graceMs: deps.env.SHUTDOWN_GRACE_MS,
    release: async () => {
      await follower.stop();
      await shutdown(deps);
    },
    exit: (code) => process.exit(code),
  });
}

// A bad setting or a refusing upstream is the operator's to fix: one line, no stack.
// Anything else is a bug: its stack, scrubbed of secrets like every log line.
main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof UpstreamRefusedError;
  // The stack, not the whole object: a client error's metadata holds its connection (and URL).
  console.error(
    known
      ? err.message
      : redactString(err instanceof Error ? (err.stack ?? err.message) : inspect(err)),
  );
  process.exit(1);
});
