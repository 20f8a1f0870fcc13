import { ApiError } from '../domain/errors';
import type { PageRules } from './page-budget';
import type { BillingModel } from '../domain/account';
import type { DeliveredRecords } from '../domain/delivered-records';
import type { Opportunity } from '../domain/record';
import type { UsageSnapshot, UsageSubject } from './snapshot';

// The metering capability (contract §16, §17) as the read service uses it: its interface and every
// type it speaks. Two implementations: PgMeter (billing/pg-meter.ts) over the Postgres ledger
// serves the API; MemoryMeter (billing/memory-meter.ts) keeps the same rules in process memory for
// the fast suite.

/**
 * A billable call's request id (contract §17.2), spent exactly once: by its delivery's first round
 * trip when the call gets that far, otherwise on its own. `spent` turns true once a committed
 * statement holds the id, or once the id proved spent already (409 duplicate_request_id).
 */
export class RequestTicket {
  spent = false;
  constructor(readonly id: string) {}

  /** An id that is not this call's to spend (spent before, or by a caller that spends it itself). */
  static spentAlready(id: string): RequestTicket {
    const ticket = new RequestTicket(id);
    ticket.spent = true;
    return ticket;
  }
}

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

/** A delivery and which of the page's ids it served (contract §11.1: max_new, unseen_only). */
export interface PageDelivery extends DeliveryOutcome {
  /** The ids served, in page order (all of them unless PageRules cut the page). */
  servedIds: string[];
  /** How many ids, from the page's start, were considered (the cursor resumes after them). */
  consumed: number;
}

export interface Metering {
  /**
   * Spends the ticket's id on its own (a ticket already spent is left as it is); 409
   * duplicate_request_id when the account already spent it (contract §17.3).
   */
  spendRequestId(subject: BillingSubject, ticket: RequestTicket): Promise<void>;
  /**
   * Records and charges the ids new this period: included allowance first, then the wallet;
   * 402 with nothing recorded when the wallet cannot cover it (contract §16.3, §16.4). A ticket
   * not yet spent is spent with the delivery (409 before anything is delivered when it was spent
   * before) and stays spent after a 402; a ticket spent already is only recorded with it.
   */
  deliver(
    subject: BillingSubject,
    ticket: RequestTicket,
    opportunityIds: readonly string[],
    rules?: PageRules,
  ): Promise<PageDelivery>;
  /**
   * A detail (contract §5.5): delivers the one record `find` finds for `id`, as deliver() would,
   * or null when there is none (nothing recorded; the ticket may be spent, as a failed call's is).
   * Postgres reads the record in the statement that charges it when it can (one round trip);
   * otherwise, and in memory, `find` looks it up first (lookUpThenDeliver).
   */
  deliverRecord(
    subject: BillingSubject,
    ticket: RequestTicket,
    id: string,
    find: RecordFinder,
  ): Promise<RecordDelivery | null>;
  /** The current period's delivered ids and remaining included allowance (contract §10.3, §11.1). */
  periodDeliveries(subject: BillingSubject): Promise<PeriodDeliveries>;
  /**
   * Usage for responses that deliver nothing (counts, errors after authentication); with a key, as
   * that key sees it (its own allowance, contract §15.4), read in the same round trip.
   */
  snapshot(subject: UsageSubject): Promise<UsageSnapshot>;
  /**
   * snapshot() of several accounts (a bare id) or keys in one read, by snapshot.usageKey; an
   * unknown account is absent from the map.
   */
  snapshots(
    subjects: readonly (string | UsageSubject)[],
  ): Promise<ReadonlyMap<string, UsageSnapshot>>;
  /**
   * How many of the ids, from the first, were already delivered to the account in the period
   * starting at periodStart (all of them: every id is a repeat).
   */
  deliveredPrefix(accountId: string, periodStart: Date, ids: readonly string[]): Promise<number>;
}

/** The canonical record of an id, or null when there is none (a deleted one included). */
export type RecordFinder = (id: string) => Promise<Opportunity | null>;

/** A detail's record and its delivery. */
export interface RecordDelivery {
  record: Opportunity;
  delivery: PageDelivery;
}

/** deliverRecord() in two steps: the record first, then its delivery. */
export async function lookUpThenDeliver(
  meter: Pick<Metering, 'deliver'>,
  subject: BillingSubject,
  ticket: RequestTicket,
  id: string,
  find: RecordFinder,
): Promise<RecordDelivery | null> {
  const record = await find(id);
  if (!record) return null;
  return { record, delivery: await meter.deliver(subject, ticket, [record.id]) };
}

/** 409: a request id is spent once per account, whatever its outcome (contract §17.3). */
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

/**
 * The current period's deliveries of an account and what its allowance still covers
 * (contract §10.3, §11.1).
 */
export interface PeriodDeliveries {
  billingModel: BillingModel;
  /** Opportunities delivered to the account in the current period. */
  delivered: DeliveredRecords;
  /** New opportunities the included allowance (account and key) still covers. */
  includedAvailable: number;
}
