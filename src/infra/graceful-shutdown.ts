import type { Server } from 'node:http';
import type { Lifecycle } from './lifecycle';
import type { Logger } from './logger';

export interface GracefulShutdownOptions {
  lifecycle: Lifecycle;
  logger: Logger;
  /** SHUTDOWN_GRACE_MS: the longest in-flight requests may take once draining began. */
  graceMs: number;
  /** Releases the services (pool, clients) once no connection is left. */
  release(): Promise<void>;
  exit(code: number): void;
}

// Listening goes on this long after the signal (within the grace) so that a load balancer's
// probe sees /readyz 503 instead of a refused connection, and requests routed in the meantime
// are served, not dropped; then the listener closes.
const MIN_LISTEN_MS = 1000;
// The services get this long to release before the process exits anyway.
const RELEASE_TIMEOUT_MS = 5000;

/**
 * SIGTERM / SIGINT (contract §22.6): /readyz answers 503 at once; new connections are accepted
 * for about a second; requests in flight finish, up to the grace; then every connection is closed
 * and the process exits 0. A second signal does no harm.
 * Returns the handler (tests call it directly).
 */
export function installGracefulShutdown(server: Server, options: GracefulShutdownOptions) {
  const { lifecycle, logger, graceMs } = options;
  let inFlight = 0;
  let onIdle: (() => void) | null = null;

  // Prepended: it runs before express answers, so the header can still be set.
  server.prependListener('request', (_req, res) => {
    inFlight++;
    // Once draining, a kept-alive connection closes after its current response.
    if (lifecycle.draining) res.setHeader('Connection', 'close');
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) onIdle?.();
    });
  });

  const handle = (signal: string) => {
    if (!lifecycle.beginDrain()) {
      logger.info('shutdown already in progress', { signal });
      return;
    }
    logger.info('draining: readiness now 503', { signal, in_flight: inFlight, grace_ms: graceMs });
    void drain().then(
      () => options.exit(0),
      (err: unknown) => {
        logger.error('shutdown failed', {
          error: err instanceof Error ? err.message : String(err),
        });
        options.exit(1);
      },
    );
  };

  const drain = async () => {
    const started = Date.now();
    await sleep(Math.min(MIN_LISTEN_MS, graceMs));
    // From here no new connection is accepted: a request a load balancer still routes here is
    // refused at once (and retried elsewhere), not accepted and then cut when the grace ends.
    // Idle kept-alive connections close now; busy ones after their response (Connection: close).
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const idle =
      inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            onIdle = resolve;
          });
    const finished = await Promise.race([
      idle.then(() => true),
      sleep(Math.max(0, graceMs - (Date.now() - started))).then(() => false),
    ]);
    if (!finished) logger.warn('grace period over: closing connections', { in_flight: inFlight });
    server.closeAllConnections();
    await closed;
    await Promise.race([options.release(), sleep(RELEASE_TIMEOUT_MS)]);
    logger.info('stopped');
  };

  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  return handle;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
