import { PgMeter } from '../billing/pg-meter';
import { RateLimits } from '../billing/rate-limit';
import { pingSearch } from '../search/client';
import { OpenSearchIndex } from '../search/opensearch-index';
import type { OpportunityIndex } from '../search/opportunity-index';
import { AuthService, authFailureLimiter } from '../service/auth';
import { throttledProbes, type HealthProbes } from '../service/health';
import type { Backends } from '../service/read-backends';
import { pgKeyLookup } from '../store/api-key-repo';
import { pingPostgres } from '../store/db';
import { pgChangeLog } from '../store/changes-repo';
import { findOpportunity } from '../store/opportunity-repo';
import type { AppDeps, Settings } from '../service/context';
import { ReadService } from '../service/read-service';

/**
 * Every capability the adapters use, built once: the server (server.ts), the CLI, the
 * benchmark and fault scripts and the tests' harness all go through compose(), so no adapter builds
 * its own meter, limiter or authenticator and two adapters of one process share them. No client
 * is in here: an adapter reaches Postgres, OpenSearch and Redis only through a capability.
 */
export interface Capabilities {
  /** Configuration, logger, taxonomy and cursor keys. */
  settings: Settings;
  /** Key lookup, its 1-s cache and the failure throttle (REST and /mcp share one). */
  auth: AuthService;
  /** Request rates per account, key, protocol message and preview address (contract §9.6, §19.1, §21.10). */
  limits: Backends['limits'];
  /** The delivery ledger and wallet (contract §16). */
  meter: Backends['meter'];
  /** Pages, counts and facets of the opportunity index (the preview reads it too). */
  index: OpportunityIndex;
  /** The authenticated read surface that REST and MCP both call. */
  reads: ReadService;
  /** What /readyz asks (service/health.ts). */
  health: HealthProbes;
}

/** The capabilities over the real backends, with the clients under them (the CLI's bulk work). */
export interface RealCapabilities extends Capabilities {
  deps: AppDeps;
}

/** Postgres, OpenSearch and Redis (or process memory when REDIS_URL is unset). */
export function realBackends(deps: AppDeps): Backends {
  return {
    index: new OpenSearchIndex(deps.search, deps.alias, deps.taxonomy, deps.searchCache),
    records: { find: (id) => findOpportunity(deps.pool, id) },
    changes: pgChangeLog(deps.pool, deps.alias),
    keys: pgKeyLookup(deps.pool, deps.keyIndex),
    authFailures: authFailureLimiter(deps.redis, deps.databaseName),
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

/**
 * The composition root. Over bootstrap's clients (the real backends), or over settings and
 * backends built elsewhere (the fast suite's in-memory ones): no client is needed then.
 */
export function compose(deps: AppDeps): RealCapabilities;
export function compose(settings: Settings, backends: Backends): Capabilities;
export function compose(
  settings: Settings | AppDeps,
  backends?: Backends,
): Capabilities | RealCapabilities {
  if (backends === undefined) {
    const deps = settings as AppDeps;
    const real: RealCapabilities = { ...capabilitiesOver(deps, realBackends(deps)), deps };
    return real;
  }
  return capabilitiesOver(settings, backends);
}

function capabilitiesOver(settings: Settings, backends: Backends): Capabilities {
  const { index, meter, limits } = backends;
  // contract §19.11: /readyz never probes more than once a second, whatever its rate.
  const health = throttledProbes(backends.health);
  const auth = new AuthService(settings, backends.keys, backends.authFailures);
  const reads = new ReadService(settings, backends);
  return { settings, auth, limits, meter, index, reads, health };
}
