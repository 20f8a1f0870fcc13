import { Meter } from '../billing/meter';
import { RateLimits } from '../billing/rate-limit';
import { pingSearch } from '../search/client';
import { AuthService } from '../service/auth';
import type { HealthProbes } from '../service/health';
import { pingPostgres } from '../store/db';
import type { AppDeps } from '../service/context';
import { ReadService } from '../service/read-service';

/**
 * Every capability the adapters use, built once (issue 12): the server (main.ts), the CLI, the
 * benchmark and fault scripts and the tests' harness all go through compose(), so no adapter builds
 * its own meter, limiter or authenticator and two adapters of one process share them.
 */
export interface Capabilities {
  /** Configuration and the raw clients, for what is not yet behind a capability interface. */
  deps: AppDeps;
  /** Key lookup, its 1-s cache and the failure throttle (REST and /mcp share one). */
  auth: AuthService;
  /** Request rates per account, key, protocol message and preview address (decisions 5, 8). */
  limits: RateLimits;
  /** The delivery ledger and wallet (decisions 7). */
  meter: Meter;
  /** The authenticated read surface that REST and MCP both call. */
  reads: ReadService;
  /** What /readyz asks (service/health.ts). */
  health: HealthProbes;
}

/** The composition root over built clients (bootstrap.ts builds those). */
export function compose(deps: AppDeps): Capabilities {
  const auth = new AuthService(deps);
  const limits = new RateLimits(deps.redis, deps.databaseName);
  const meter = new Meter(deps.pool, { timeoutMs: deps.env.POSTGRES_TIMEOUT_MS });
  const reads = new ReadService(deps, meter, limits);
  const health: HealthProbes = {
    postgres: () => pingPostgres(deps.pool),
    opensearch: () => pingSearch(deps.search),
  };
  return { deps, auth, limits, meter, reads, health };
}
