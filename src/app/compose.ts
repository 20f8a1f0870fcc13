import { PgMeter } from '../billing/pg-meter';
import { RateLimits } from '../billing/rate-limit';
import { pingSearch } from '../search/client';
import { OpenSearchIndex } from '../search/opensearch-index';
import type { OpportunityIndex } from '../search/opportunity-index';
import { AuthService } from '../service/auth';
import { throttledProbes, type HealthProbes } from '../service/health';
import type { ReadBackends } from '../service/read-backends';
import { pgKeyLookup, type KeyLookup } from '../store/api-key-repo';
import { pingPostgres } from '../store/db';
import { pgChangeLog } from '../store/changes-repo';
import { findOpportunity } from '../store/opportunity-repo';
import type { AppDeps } from '../service/context';
import { ReadService } from '../service/read-service';

/**
 * Every capability the adapters use, built once (issue 12): the server (main.ts), the CLI, the
 * benchmark and fault scripts and the tests' harness all go through compose(), so no adapter builds
 * its own meter, limiter or authenticator and two adapters of one process share them.
 */
export interface Capabilities {
  /** Configuration and the raw clients, for what is not behind a capability interface. */
  deps: AppDeps;
  /** Key lookup, its 1-s cache and the failure throttle (REST and /mcp share one). */
  auth: AuthService;
  /** Request rates per account, key, protocol message and preview address (decisions 5, 8). */
  limits: ReadBackends['limits'];
  /** The delivery ledger and wallet (decisions 7). */
  meter: ReadBackends['meter'];
  /** Pages, counts and facets of the opportunity index (the preview reads it too). */
  index: OpportunityIndex;
  /** The authenticated read surface that REST and MCP both call. */
  reads: ReadService;
  /** What /readyz asks (service/health.ts). */
  health: HealthProbes;
}

/** The implementations behind the capabilities: real ones by default, in-memory in the fast suite. */
export interface Backends extends ReadBackends {
  keys: KeyLookup;
  health: HealthProbes;
}

/** Postgres, OpenSearch and Redis (or process memory when REDIS_URL is unset). */
export function realBackends(deps: AppDeps): Backends {
  return {
    index: new OpenSearchIndex(deps.search, deps.alias, deps.taxonomy, deps.searchCache),
    records: { find: (id) => findOpportunity(deps.pool, id) },
    changes: pgChangeLog(deps.pool, deps.alias),
    keys: pgKeyLookup(deps.pool, deps.keyIndex),
    meter: new PgMeter(deps.pool, {
      timeoutMs: deps.env.POSTGRES_TIMEOUT_MS,
      commitTimeoutMs: deps.env.POSTGRES_COMMIT_TIMEOUT_MS,
    }),
    limits: new RateLimits(deps.redis, deps.databaseName),
    health: {
      postgres: () => pingPostgres(deps.pool),
      opensearch: () => pingSearch(deps.search),
    },
  };
}

/** The composition root over built clients (bootstrap.ts builds those). */
export function compose(deps: AppDeps, backends: Backends = realBackends(deps)): Capabilities {
  const { index, meter, limits } = backends;
  // decisions 12: /readyz never probes more than once a second, whatever its rate.
  const health = throttledProbes(backends.health);
  const auth = new AuthService(deps, backends.keys);
  const reads = new ReadService(deps, backends);
  return { deps, auth, limits, meter, index, reads, health };
}
