import { bootstrap, shutdown } from './bootstrap';
import { isProduction, type Env } from './config';
import { searchAuthentication } from './config/connections';
import { compose } from './app/compose';
import { createApp } from './app/create-app';
import { createHttpServer, listen } from './app/http-server';
import { ensureDemoAccount } from './app/demo-account';
import { isFirstProcess, processLogFields } from './app/processes';
import { batchedStderr, createLogger } from './infra/logger';
import { registry } from './infra/metrics';
import { shareProcessMetrics } from './infra/process-metrics';
import { installGracefulShutdown } from './infra/graceful-shutdown';
import { Lifecycle } from './infra/lifecycle';
import { IndexFollower } from './search/index-follower';
import { logProcessWarnings, logUnhandledRejections } from './infra/process-errors';
import { withoutCredentials } from './infra/redact';
import { staleMappingWarning } from './search/index-definition';
import { reindex } from './search/sync';

/**
 * One API process: bootstrap, the HTTP server, the index follower, SIGTERM. `npm start` runs one
 * (API_PROCESSES=1), or a primary runs API_PROCESSES of them on one port (main.ts, app/processes.ts).
 */
export async function serve(env: Env): Promise<void> {
  // One of several processes: the primary may ask for its metrics from now on.
  shareProcessMetrics(registry);
  const fields = processLogFields();
  // Beside other processes on one stderr, each write must stay whole (logger.ts, atomic chunks).
  const logger = createLogger(
    env.LOG_LEVEL,
    fields ? batchedStderr(process.stderr, { atomic: true }) : undefined,
    fields,
  );
  const deps = await bootstrap({ env, logger });
  logUnhandledRejections(logger);
  logProcessWarnings(logger);
  // An index built by older code lacks fields the code queries (keyword search, rate statistics)
  // until a reindex. Production leaves the move to the operator (`cli reindex`, docs/search.md);
  // local mode brings everything up itself, so it rebuilds behind the alias in the background (the
  // old index serves until the atomic swap): once, by the first of several processes.
  const stale = await staleMappingWarning(deps.search, deps.alias).catch(() => null);
  if (stale && isProduction(deps.env)) {
    logger.warn('index mapping is older than the code', { detail: stale });
  } else if (stale && !isFirstProcess()) {
    logger.warn('index mapping is older than the code; the first API process rebuilds it', {
      detail: stale,
    });
  } else if (stale) {
    logger.warn('index mapping is older than the code; rebuilding it in the background', {
      detail: stale,
    });
    void reindex(deps).then(
      (done) =>
        logger.info('index rebuilt with the current mapping', {
          index: done.index,
          compacted: done.compacted,
        }),
      (err: unknown) =>
        logger.error('index rebuild failed; run `npm run cli -- reindex`', {
          error: err instanceof Error ? err.message : String(err),
        }),
    );
  }
  // contract §22.4: production creates no demo account.
  if (!isProduction(deps.env)) await ensureDemoAccount(deps);
  deps.lifecycle = new Lifecycle();
  const server = createHttpServer(createApp(compose(deps), { mcp: 'now' }), deps.env);
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
