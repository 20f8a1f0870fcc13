import type { Metering } from '../billing/metering';
import type { RateLimiting } from '../billing/rate-limit';
import type { Opportunity } from '../domain/record';
import type { Limiter } from '../infra/limiter';
import type { OpportunityIndex } from '../search/opportunity-index';
import type { KeyLookup } from '../store/api-key-repo';
import type { ChangeLog } from '../store/changes-repo';
import type { HealthProbes } from './health';

/** The canonical record of one id (detail, contract §5.5): Postgres, or the fast suite's array. */
export interface RecordLookup {
  find(id: string): Promise<Opportunity | null>;
}

/**
 * The implementations behind every capability: real ones over the clients
 * (app/compose.ts realBackends) or in process memory (app/memory-backends.ts, the fast suite).
 * Each service takes the part it uses.
 */
export interface Backends {
  index: OpportunityIndex;
  records: RecordLookup;
  /** The change feed's log (contract §12). */
  changes: ChangeLog;
  meter: Metering;
  limits: RateLimiting;
  keys: KeyLookup;
  /** Failed authentications per address group (service/auth.ts authFailureLimiter). */
  authFailures: Limiter;
  health: HealthProbes;
}
