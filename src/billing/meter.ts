import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { ApiError } from '../domain/errors';
import { allocate } from './allocate';
import { inlineParams } from './inline-sql';
import {
  ACCOUNT,
  ACCOUNT_WITH_USAGE,
  LOCK_ACCOUNT,
  RECORD_DELIVERY,
  USAGE_AND_NEW_IDS,
  toAccountBilling,
  toSafeInteger,
  toUsage,
  type AccountRow,
  type RecordedRow,
  type UsageAndNewRow,
  type UsageColumns,
} from './ledger-sql';
import { cutPage, type PageRules } from './page-budget';
import { currentPeriod, type Period } from './period';
import { metrics } from '../infra/metrics';
import { allDelivered } from './delivered';
import { DeliveredCache } from './delivered-cache';
import {
  duplicateRequestId,
  noDelivery,
  type BillingSubject,
  type Metering,
  type PageDelivery,
} from './metering';
import { readPeriodDeliveries, type PeriodDeliveries } from './period-deliveries';
import { failClosed } from './pg-errors';
import { PRICE_PER_OPPORTUNITY_MILLICENTS, accountAllowance, includedAvailable } from './plans';
import {
  RequestTicket,
  pruneRequestIds,
  spendRequestIdAtOnce,
  spendRequestIdStatement,
} from './request-ids';
import { meteringTransaction } from './transaction';
import { NO_USAGE, buildSnapshot, type AccountBilling, type UsageSnapshot } from './snapshot';

const PERIOD_GUESSES = 10_000;

export type { BillingSubject, DeliveryOutcome, PageDelivery } from './metering';

export interface MeterOptions {
  /** The clock (tests move it across periods). */
  now?: () => Date;
  /** One spendRequestId() in this many also prunes expired ids; 0 never does. */
  pruneOneIn?: number;
  /** Bound on waiting for the account lock and on each statement; past it → 503. */
  timeoutMs?: number;
  /** How long a delivery's COMMIT may take to be confirmed (decisions 12; never cut sooner). */
  commitTimeoutMs?: number;
}

/**
 * The delivery ledger and wallet (contract 8.2, decisions 7). Every method fails closed: a store
 * that cannot be reached or cannot answer becomes 503 metering_unavailable, never a free delivery.
 */
export class Meter implements Metering {
  private readonly now: () => Date;
  private readonly pruneOneIn: number;
  private readonly timeoutMs: number;
  private readonly commitTimeoutMs?: number;
  private readonly periodGuesses = new Map<string, Date>();
  /** The period's delivered ids per account, between requests (exact: delivered-cache.ts). */
  private readonly delivered = new DeliveredCache();

  constructor(
    private readonly pool: Pool,
    options: MeterOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.pruneOneIn = options.pruneOneIn ?? 1000;
    this.timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? 5000));
    this.commitTimeoutMs = options.commitTimeoutMs;
  }

  /**
   * Spends a request id for the account on its own (decisions 7): for a call whose delivery does
   * not spend it (see deliver). 409 duplicate_request_id when the account already spent it.
   */
  async spendRequestId(subject: BillingSubject, request: string | RequestTicket): Promise<void> {
    const ticket = typeof request === 'string' ? new RequestTicket(request) : request;
    if (ticket.spent) return;
    const fresh = await failClosed(() =>
      spendRequestIdAtOnce(this.pool, subject.accountId, ticket.id, this.timeoutMs),
    );
    this.settle(ticket, fresh);
  }

  /** Marks the ticket spent; 409 when its id was spent before. */
  private settle(ticket: RequestTicket, fresh: boolean): void {
    ticket.spent = true;
    if (!fresh) throw duplicateRequestId();
    // Pruning rides along occasionally instead of on every request, off the request's path.
    if (this.pruneOneIn > 0 && Math.random() * this.pruneOneIn < 1) {
      this.pruneRequestIds().catch(() => undefined);
    }
  }

  /** Deletes spent ids past the 7-day retention (one bounded batch); returns how many. */
  pruneRequestIds(): Promise<number> {
    return failClosed(() => pruneRequestIds(this.pool, this.now()));
  }

  /**
   * Records what a response is about to deliver and charges for it, in one transaction
   * (decisions 7). Throws 402 insufficient_balance or opportunity_quota_exhausted with nothing
   * recorded or charged, and 503 metering_unavailable when the store fails.
   * A RequestTicket not yet spent is spent by the delivery's first round trip (issue 13: one round
   * trip less per page): 409 duplicate_request_id before anything is delivered when it was spent
   * before; kept spent by a 402 too. A plain string id is recorded with the delivery, not spent.
   */
  async deliver(
    subject: BillingSubject,
    request: string | RequestTicket,
    opportunityIds: readonly string[],
    rules: PageRules = {},
    options: { repeatsLikely?: boolean } = {},
  ): Promise<PageDelivery> {
    const ticket = typeof request === 'string' ? RequestTicket.spentAlready(request) : request;
    // Zero-result pages consume nothing (contract 8.2.2): no lock, no write.
    if (opportunityIds.length === 0) {
      await this.spendRequestId(subject, ticket);
      return noDelivery(await this.snapshot(subject));
    }
    const repeats = options.repeatsLikely
      ? await failClosed(() => this.onlyRepeats(subject, ticket, opportunityIds, rules))
      : null;
    if (repeats) {
      metrics.delivered(repeats);
      return repeats;
    }
    const spending = !ticket.spent;
    const result = await failClosed(() =>
      meteringTransaction(
        this.pool,
        this.timeoutMs,
        (client, begin) => this.record(client, begin, subject, ticket, opportunityIds, rules),
        this.commitTimeoutMs,
      ),
    );
    // Committed: the id is spent now, also when the page was refused for its cost.
    if (spending) this.settle(ticket, true);
    if ('refused' in result) throw result.refused;
    // After the commit: only what was recorded and charged is counted.
    metrics.delivered(result);
    return result;
  }

  /**
   * A page of repeats without the account lock (issue 13): one read, no transaction. A delivery is
   * never taken back within its period, so ids found delivered stay delivered, and a page with
   * nothing new writes nothing: the lock only serialises writers, and holding it for such a page
   * made every page of one account wait for the others. The usage shown is the committed state
   * at the read, as for a count. Null when anything is new (or the period guess is missing or
   * wrong): the caller then delivers under the lock, where everything is decided again.
   */
  private async onlyRepeats(
    subject: BillingSubject,
    ticket: RequestTicket,
    pageIds: readonly string[],
    rules: PageRules,
  ): Promise<PageDelivery | null> {
    const guess = this.periodGuesses.get(subject.accountId);
    if (!guess) return null;
    const now = this.now();
    // The ticket's spend rides along: the statements run as one implicit transaction, so the id is
    // spent exactly when the read happened. Whatever the read finds, the id stays spent.
    const spend = ticket.spent ? [] : spendStatements(subject, ticket);
    const results = (await this.pool.query(
      [
        ...spend,
        inlineParams(ACCOUNT, [subject.accountId]),
        inlineParams(USAGE_AND_NEW_IDS, [subject.accountId, subject.keyId, guess, pageIds]),
      ].join(';\n'),
    )) as unknown as QueryResult[];
    if (spend.length > 0) this.settle(ticket, results[spend.length - 1]?.rowCount === 1);
    const row = results[spend.length]?.rows[0] as AccountRow | undefined;
    const state = results[spend.length + 1]?.rows[0] as UsageAndNewRow | undefined;
    if (!row || !state?.key_found) return null;
    const account = toAccountBilling(row);
    const period = periodOf(account, now);
    if (period.start.getTime() !== guess.getTime()) return null;
    const cut = cutPage(pageIds, new Set(state.new_ids), rules);
    if (cut.newIds.length > 0) return null;
    return noDelivery(buildSnapshot(account, period, toUsage(state)), cut);
  }

  /** Read-only, takes no lock: the 304 of a page of repeats (decisions 11). */
  allDelivered(accountId: string, periodStart: Date, ids: readonly string[]): Promise<boolean> {
    return failClosed(() => allDelivered(this.pool, accountId, periodStart, ids));
  }

  /** The current period's delivered ids and remaining included allowance (decisions 11). */
  periodDeliveries(subject: BillingSubject): Promise<PeriodDeliveries> {
    return failClosed(async () => {
      const now = this.now();
      const { rows } = await this.pool.query<AccountRow>(
        prepared('account_with_usage', ACCOUNT_WITH_USAGE, [subject.accountId, now]),
      );
      const row = rows[0];
      if (!row) throw new Error(`account ${subject.accountId} not found`);
      const account = toAccountBilling(row);
      return readPeriodDeliveries(
        this.pool,
        subject,
        periodOf(account, now),
        {
          billingModel: account.settings.billingModel,
          allowance: accountAllowance(account.plan, account.settings).allowance,
        },
        this.delivered,
      );
    });
  }

  /** Usage for responses that deliver nothing (counts, errors after authentication) and the CLI. */
  snapshot(subject: Pick<BillingSubject, 'accountId'>): Promise<UsageSnapshot> {
    return failClosed(async () => {
      const now = this.now();
      const { rows } = await this.pool.query<
        AccountRow & UsageColumns & { usage_period_start: Date | null }
      >(prepared('account_with_usage', ACCOUNT_WITH_USAGE, [subject.accountId, now]));
      const row = rows[0];
      if (!row) throw new Error(`account ${subject.accountId} not found`);
      const account = toAccountBilling(row);
      const period = periodOf(account, now);
      this.rememberPeriod(subject.accountId, period);
      // The latest usage row counts only when it is this period's (a new period starts at zero).
      const current = row.usage_period_start?.getTime() === period.start.getTime();
      return buildSnapshot(account, period, current ? toUsage(row) : NO_USAGE);
    });
  }

  /**
   * The order matters. 1: lock the account row, which every writer of this account's ledger and
   * wallet takes first, so concurrent requests of one account wait their turn (decisions 8) while
   * other accounts proceed. 2: in a new statement (so a fresh snapshot that sees what the previous
   * lock holder committed) find the new ids and the usage. 3: decide the allocation and whether
   * it is covered, before writing anything. 4: write it all in one statement.
   * A ticket not yet spent is spent in the first round trip, right after the lock: a concurrent
   * call with the same id waits for the lock, then finds the id spent (409).
   * A refusal for the page's cost comes back as a value, so that the transaction still commits the
   * spent id (and nothing else: it is decided before anything is written).
   */
  private async record(
    client: PoolClient,
    begin: string,
    subject: BillingSubject,
    ticket: RequestTicket,
    pageIds: readonly string[],
    rules: PageRules,
  ): Promise<PageDelivery | { refused: ApiError }> {
    const now = this.now();
    // Steps 1 and 2 in ONE round trip when the period is known from an earlier call: BEGIN, the
    // lock, then the read as its own statement (in a multi-statement query each statement still
    // takes its own snapshot, so the read sees what the previous holder of the lock committed).
    // The guess is checked against the locked row; a wrong one (a new period) reads again.
    const guess = this.periodGuesses.get(subject.accountId);
    const readNew = (start: Date) => [subject.accountId, subject.keyId, start, pageIds] as const;
    const spend = ticket.spent ? [] : [spendRequestIdStatement(subject.accountId, ticket.id)];
    const results = (await client.query(
      [
        begin,
        inlineParams(LOCK_ACCOUNT, [subject.accountId]),
        ...spend,
        ...(guess ? [inlineParams(USAGE_AND_NEW_IDS, readNew(guess))] : []),
      ].join(';\n'),
    )) as unknown as QueryResult[];
    const last = results.length - 1;
    const read = guess ? last : last + 1;
    // A spent id: 409, and the rollback leaves everything as it was.
    if (spend.length > 0 && results[read - 1]?.rowCount !== 1) this.settle(ticket, false);
    const locked = results[read - 1 - spend.length]?.rows[0] as AccountRow | undefined;
    if (!locked) throw new Error(`account ${subject.accountId} not found`);
    const account = toAccountBilling(locked);
    const period = periodOf(account, now);
    this.rememberPeriod(subject.accountId, period);

    const state =
      guess?.getTime() === period.start.getTime()
        ? (results[results.length - 1]?.rows[0] as UsageAndNewRow | undefined)
        : (
            await client.query<UsageAndNewRow>(
              prepared('usage_and_new_ids', USAGE_AND_NEW_IDS, [...readNew(period.start)]),
            )
          ).rows[0];
    if (!state?.key_found)
      throw new Error(`key ${subject.keyId} is not of account ${subject.accountId}`);
    const usage = toUsage(state);
    // max_new and unseen_only cut the page here, under the lock (decisions 11).
    const cut = cutPage(pageIds, new Set(state.new_ids), rules);
    const newIds = cut.newIds;
    if (newIds.length === 0) return noDelivery(buildSnapshot(account, period, usage), cut);

    let allocation: ReturnType<typeof allocate>;
    try {
      allocation = allocate({
        newCount: newIds.length,
        billingModel: account.settings.billingModel,
        includedAvailable: includedAvailable({
          accountAllowance: accountAllowance(account.plan, account.settings).allowance,
          accountIncludedUsed: usage.includedUsed,
          keyAllowance: state.key_allowance,
          keyIncludedUsed: state.key_included_used ?? 0,
        }),
        balanceMillicents: account.balanceMillicents,
      });
    } catch (err) {
      if (err instanceof ApiError) return { refused: err };
      throw err;
    }

    const written = (
      await client.query<RecordedRow>(
        prepared('record_delivery', RECORD_DELIVERY, [
          subject.accountId,
          subject.keyId,
          period.start,
          newIds,
          ticket.id,
          allocation.included,
          PRICE_PER_OPPORTUNITY_MILLICENTS,
          allocation.chargeMillicents,
          allocation.payg,
          period.end,
        ]),
      )
    ).rows[0];
    // Under the lock the ids found new must all insert; anything else is a broken invariant, and
    // throwing rolls the whole delivery back rather than charge for what was not recorded.
    if (
      !written ||
      written.inserted !== newIds.length ||
      toSafeInteger(written.charged) !== allocation.chargeMillicents
    ) {
      throw new Error('metering invariant broken: recorded deliveries differ from the allocation');
    }
    const after: AccountBilling = {
      ...account,
      balanceMillicents: account.balanceMillicents - allocation.chargeMillicents,
    };
    return {
      newCount: newIds.length,
      includedNewCount: allocation.included,
      paygNewCount: allocation.payg,
      chargeMillicents: allocation.chargeMillicents,
      usage: buildSnapshot(after, period, toUsage(written)),
      servedIds: cut.served,
      consumed: cut.consumed,
    };
  }

  /** The account's period as last seen, bounded (oldest first out): only ever a guess, checked. */
  private rememberPeriod(accountId: string, period: Period): void {
    this.periodGuesses.delete(accountId);
    this.periodGuesses.set(accountId, period.start);
    if (this.periodGuesses.size > PERIOD_GUESSES) {
      const oldest = this.periodGuesses.keys().next();
      if (!oldest.done) this.periodGuesses.delete(oldest.value);
    }
  }
}

/** The account's current period (billing/period.ts) from its billing columns. */
export function periodOf(account: AccountBilling, now: Date): Period {
  return currentPeriod(
    {
      billingModel: account.settings.billingModel,
      periodKind: account.plan.periodKind,
      storedStart: account.storedPeriodStart,
      storedEnd: account.storedPeriodEnd,
    },
    now,
  );
}

/**
 * A statement the meter runs on every count or delivery, prepared once per connection (a named
 * statement): Postgres then plans it once instead of on every call (issue 13: Postgres CPU per
 * request). The names are the meter's own, one per text.
 */
function prepared(name: string, text: string, values: unknown[]): QueryConfig {
  return { name: `meter_${name}`, text, values };
}

/** The statements that spend a ticket's id in a multi-statement query outside a transaction. */
function spendStatements(subject: BillingSubject, ticket: RequestTicket): string[] {
  return [
    'SET LOCAL synchronous_commit = off',
    spendRequestIdStatement(subject.accountId, ticket.id),
  ];
}
