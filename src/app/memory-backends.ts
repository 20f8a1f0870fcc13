import { MemoryMeter } from '../billing/memory-meter';
import { RateLimits } from '../billing/rate-limit';
import type { Taxonomy } from '../domain/taxonomy';
import { MemoryIndex } from '../search/memory-index';
import { flagProbes } from '../service/health';
import { MemoryAccounts } from '../store/memory-accounts';
import { authFailureLimiter } from '../service/auth';
import type { Backends } from '../service/read-backends';

/** The in-memory backends and the handles a test uses to set up its world. */
export interface MemoryWorld {
  backends: Backends;
  /** Records: put() them, as an import and sync would. */
  index: MemoryIndex;
  /** Accounts and keys: create, update, revoke. */
  accounts: MemoryAccounts;
  meter: MemoryMeter;
  /** What /readyz reports; flip a flag to see it unavailable. */
  up: { postgres: boolean; opensearch: boolean };
}

/**
 * Every capability in process memory: no Postgres, OpenSearch or Redis. The rate
 * limiter is RateLimits without Redis, i.e. its in-process windows. compose(settings, world.backends)
 * then serves the real express app over them (the fast suite, test/fast).
 */
export function memoryBackends(
  taxonomy: Taxonomy,
  options: { now?: () => Date } = {},
): MemoryWorld {
  const index = new MemoryIndex(taxonomy);
  const accounts = new MemoryAccounts();
  const meter = new MemoryMeter(accounts, options);
  const up = { postgres: true, opensearch: true };
  const backends: Backends = {
    index,
    records: index,
    changes: index,
    keys: accounts,
    authFailures: authFailureLimiter(null, 'memory'),
    meter,
    limits: new RateLimits(null),
    health: flagProbes(up),
  };
  return { backends, index, accounts, meter, up };
}
