import { ApiError } from '../domain/errors';
import type { PageRules } from './page-budget';
import type { RequestTicket } from './request-ids';
import type { PeriodDeliveries } from './period-deliveries';
import type { UsageSnapshot } from './snapshot';

// The metering capability (contract 8.2, decisions 7) as the read service uses it. Two
// implementations: Meter (billing/meter.ts) over the Postgres ledger serves the API; MemoryMeter
// (billing/memory-meter.ts) keeps the same rules in process memory for the fast suite.

/** Who a metered request is billed to: the authenticated account and the key it used. */
export interface BillingSubject {
  accountId: string;
  keyId: string;
}

export interface DeliveryOutcome {
  /** Opportunities delivered for the first time this period (X-Service-New-Opportunity-Count). */
  newCount: number;
  includedNewCount: number;
  paygNewCount: number;
  chargeMillicents: number;
  /** Usage after this delivery. */
  usage: UsageSnapshot;
}

/** A delivery and which of the page's ids it served (decisions 11: max_new, unseen_only). */
export interface PageDelivery extends DeliveryOutcome {
  /** The ids served, in page order (all of them unless PageRules cut the page). */
  servedIds: string[];
  /** How many ids, from the page's start, were considered (the cursor resumes after them). */
  consumed: number;
}

export interface Metering {
  /**
   * Spends the id on its own (a ticket already spent is left as it is); 409 duplicate_request_id
   * when the account already spent it (decisions 7).
   */
  spendRequestId(subject: BillingSubject, request: string | RequestTicket): Promise<void>;
  /**
   * Records and charges the ids new this period: included allowance first, then the wallet;
   * 402 with nothing recorded when the wallet cannot cover it (contract 8.2.3, 8.2.4). A ticket
   * not yet spent is spent with the delivery (409 before anything is delivered when it was spent
   * before) and stays spent after a 402; a plain string id is only recorded with the delivery.
   */
  deliver(
    subject: BillingSubject,
    request: string | RequestTicket,
    opportunityIds: readonly string[],
    rules?: PageRules,
    options?: { repeatsLikely?: boolean },
  ): Promise<PageDelivery>;
  /** The current period's delivered ids and remaining included allowance (decisions 11). */
  periodDeliveries(subject: BillingSubject): Promise<PeriodDeliveries>;
  /** Usage for responses that deliver nothing (counts, errors after authentication). */
  snapshot(subject: Pick<BillingSubject, 'accountId'>): Promise<UsageSnapshot>;
  /** Whether every id was already delivered to the account in the period starting at periodStart. */
  allDelivered(accountId: string, periodStart: Date, ids: readonly string[]): Promise<boolean>;
}

/** 409: a request id is spent once per account, whatever its outcome (decisions 7). */
export function duplicateRequestId(): ApiError {
  return new ApiError(
    'duplicate_request_id',
    'This X-Request-ID was already used by this account; retry with a new one.',
  );
}

/** A delivery that records nothing: an empty page, or a page of repeats. */
export function noDelivery(
  usage: UsageSnapshot,
  cut: { served: string[]; consumed: number } = { served: [], consumed: 0 },
): PageDelivery {
  return {
    newCount: 0,
    includedNewCount: 0,
    paygNewCount: 0,
    chargeMillicents: 0,
    usage,
    servedIds: cut.served,
    consumed: cut.consumed,
  };
}
