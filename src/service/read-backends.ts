import type { Metering } from '../billing/metering';
import type { RateLimiting } from '../billing/rate-limit';
import type { Opportunity } from '../domain/record';
import type { OpportunityIndex } from '../search/opportunity-index';
import type { ChangeLog } from '../store/changes-repo';

/** The canonical record of one id (detail, contract 4.4): Postgres, or the fast suite's array. */
export interface RecordLookup {
  find(id: string): Promise<Opportunity | null>;
}

/**
 * What the ReadService reads and meters through (issue 12): capabilities, each with a real
 * implementation (app/compose.ts) and an in-memory one (the fast suite).
 */
export interface ReadBackends {
  index: OpportunityIndex;
  records: RecordLookup;
  /** The change feed's log (decisions 11). */
  changes: ChangeLog;
  meter: Metering;
  limits: RateLimiting;
}
