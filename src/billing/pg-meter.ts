import { DatabaseError, type Pool, type QueryConfig, type QueryResult } from 'pg';
import { metrics } from '../infra/metrics';
import {
  DEFAULT_COMMIT_TIMEOUT_MS,
  flushStatement,
  transactionInOneTrip,
  withWatchedClient,
} from '../store/db';
import { GroupFlush } from '../store/group-flush';
import { KeyedBatches } from '../store/keyed-batches';
import { allocate } from './allocate';
import { deliveredPrefix } from './delivered';
import { DeliveredCache } from './delivered-cache';
import { KnownDelivered } from './known-delivered';
import {
  ACCOUNT_KEYS_WITH_USAGE,
  ACCOUNT_ROW,
  ACCOUNTS_WITH_USAGE,
  CHARGE,
  DELIVER,
  DELIVER_MANY,
  DELIVER_RECORD,
  DELIVER_RECORD_MANY,
  DELIVERY_RETENTION_DAYS,
  DURABLE,
  KNOWN_PAGES,
  PRUNE_DELIVERIES,
  PRUNE_REQUEST_IDS,
  READ_PAGE,
  READ_PAGE_HOLDING,
  REQUEST_ID_RETENTION_DAYS,
  RETENTION_LOCK,
  RETENTION_UNLOCK,
  VACUUMED_TABLES,
  SPEND_REQUEST_ID,
  toAccountBilling,
  toSafeInteger,
  toUsage,
  type AccountKeyUsageRow,
  type AccountUsageRow,
  type AccountRow,
  type ChargeRow,
  type DeliverRow,
  type KnownPagesRow,
  type ReadPageRow,
  type UsageAndNewRow,
} from './ledger-sql';
import {
  duplicateRequestId,
  lookUpThenDeliver,
  noDelivery,
  type BillingSubject,
  type DeliveryOutcome,
  type Metering,
  type PageDelivery,
  type PeriodDeliveries,
  type RecordDelivery,
  type RecordFinder,
  type RequestTicket,
} from './metering';
import { cutPage, type PageCut, type PageRules } from './page-budget';
import { periodOf, type Period } from './period';
import { readPeriodDeliveries } from './period-deliveries';
import { failClosed, meteringUnavailable } from './pg-errors';
import { ApiError } from '../domain/errors';
import { PRICE_PER_OPPORTUNITY_MILLICENTS, accountAllowance } from './plans';
import { runBatch, statement, type Statement } from './sql-batch';
import {
  buildSnapshot,
  usageKey,
  type AccountBilling,
  type KeyUsage,
  type PeriodUsage,
  type UsageSnapshot,
  type UsageSubject,
} from './snapshot';
import { Lru } from '../infra/lru';

const PERIOD_GUESSES = 10_000;
/** No period starts here: without a guess READ_PAGE reads nothing of use, and the period is read. */
const NO_GUESS = new Date(0);
const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows a retention batch deletes at most, and batches a run takes at most (the rest: next run). */
const RETENTION_BATCH = 5000;
const RETENTION_BATCHES = 40;

/** What one retention run did. */
export interface RetentionRun {
  requestIds: number;
  deliveries: number;
  /** False when another process held the retention lock (and so did the work). */
  ran: boolean;
}

export interface MeterOptions {
  /** The clock (tests move it across periods). */
  now?: () => Date;
  /**
   * The retention step (retain()) rides on a spent request id at most this often, off the
   * request's path; 0 never runs it (the CLI, benches, tests that call retain() themselves).
   */
  retentionEveryMs?: number;
  /** Bound on waiting for a lock and on each statement; past it → 503. */
  timeoutMs?: number;
  /** How long a delivery's COMMIT may take to be confirmed (contract §16.6; never cut sooner). */
  commitTimeoutMs?: number;
  /**
   * How long a call may wait for its account's statement in flight before it is sent (default
   * `timeoutMs`); past it → 503, never sent.
   */
  queueWaitMs?: number;
}

/**
 * An account's billing state as this process last read it with READ_PAGE (balance aside, which
 * meter_charge reads under its lock), and its fingerprint as Postgres computed it then: what lets
 * a page be charged in one round trip (meter_deliver checks the fingerprint before it charges).
 */
interface BillingState {
  fingerprint: string;
  account: AccountBilling;
  period: Period;
}

/** One call of the one round trip: a page's ids or a detail's record id, with its held state. */
interface OneTrip {
  subject: BillingSubject;
  held: BillingState;
  what: { pageIds: readonly string[] } | { recordId: string };
  requestId: string;
  spend: boolean;
}

/** A page this process knows delivered: its account, held period and request id (null: spent). */
interface KnownPage {
  accountId: string;
  /** Whose headers: the key's own allowance is read with the account (contract §15.4). */
  keyId: string;
  periodStart: Date;
  requestId: string | null;
}

/** KNOWN_PAGES's answer for one call: the account and usage, and whether it spent the call's id. */
interface KnownRead {
  account: AccountBilling;
  usage: PeriodUsage;
  key: KeyUsage;
  fresh: boolean;
}

/** Most calls one statement carries (DELIVER_MANY, KNOWN_PAGES); the rest go in the next one. */
const MAX_ONE_TRIPS_A_STATEMENT = 64;

/** meter_charge's outcomes after which the response waits for the WAL flush. */
const FLUSHED_OUTCOMES: ReadonlySet<ChargeRow['outcome']> = new Set([
  'delivered',
  'insufficient_balance',
  'opportunity_quota_exhausted',
]);

/** What a delivery's first round trip found: the account, its period, and the page's new ids. */
interface PageRead {
  account: AccountBilling;
  period: Period;
  usage: ReturnType<typeof toUsage>;
  /** The key's own allowance and included use of the period, for the headers (contract §15.4). */
  key: KeyUsage;
  newIds: string[];
}

/**
 * The delivery ledger and wallet over Postgres (contract §16, §17). Every method fails closed: a
 * store that cannot be reached or cannot answer becomes 503 metering_unavailable, never a free
 * delivery.
 *
 * A delivery is two round trips (one for a page without cut rules of an account already read:
 * below), and only a short part of the second is serialised per account:
 * 1. Without any lock, one prepared statement (READ_PAGE), committed asynchronously: spend the
 *    request id (409 when spent before), read the account, its usage and which of the page's ids
 *    are new this period. A page with nothing
 *    new (the commonest page of a busy integrator) ends here: it writes nothing, and a delivery is
 *    never taken back within its period, so the ids found delivered stay delivered.
 * 2. The charge: ONE statement, meter_charge (migrations 008 and 012), in a transaction sent whole
 *    in one round trip, committed asynchronously and then made durable (ledger-sql.ts DURABLE, in a
 *    flush shared by the charges that finished while the previous one ran: store/group-flush.ts).
 *    It locks the period's counters, inserts the new ids (the primary key settles a race between
 *    two pages of one account that share ids: each id is recorded, and charged, once), decides
 *    the allocation and writes it, or refuses (402) with nothing recorded. Concurrent charges of
 *    one account wait on each other only from that lock to the commit, which no longer waits for
 *    the disk. (The counters come before the rows in every charge: migration 012's lock order.)
 *
 * A page without cut rules (no max_new, no unseen_only: a detail, a plain list page, a feed page)
 * of an account whose billing state this process holds from an earlier READ_PAGE is ONE round trip
 * instead: meter_deliver (migration 011), one autocommitted prepared statement, asynchronously
 * committed and then made durable by the same shared flush. Without cut rules the JavaScript has
 * nothing to decide between the read and the charge: every id of the page is a candidate, and
 * meter_charge's ON CONFLICT decides which are new (as it already does for a concurrent page). What
 * the JavaScript took from READ_PAGE's account row (the period, the allowance, the billing model)
 * comes from the held state (`billingStates`, bounded, per account), and the statement first
 * checks that it is still the account's: Postgres compares the fingerprint of those columns (plan,
 * billing model, status, allowance override, stored period; not the balance, which meter_charge
 * reads under its lock) with the one READ_PAGE returned, computed by the same SQL function. (Only
 * the READ_PAGE of an account without a usable held state asks for it: READ_PAGE_HOLDING.) Another
 * state (an admin's `account update` since) answers 'stale' having written nothing, not even the
 * request id: the held state is dropped and the page takes the two round trips above, which read
 * the account again and hold the new state. (The account row is not locked: an update committed
 * between the check and the charge is obeyed from the next page on, as one committed between
 * READ_PAGE and the charge always was.) The statement spends the request id before it charges
 * (spent before: 409, nothing else written), and answers the usage, the balance and the recorded ids
 * in page order, so nothing more is read for the headers. A period that has ended since the state
 * was read, a page with cut rules, and an account not held keep the two round trips.
 * A page whose ids this process has all seen delivered in the period (known-delivered.ts: learnt
 * from READ_PAGE's answers and from committed charges) takes one read that writes nothing but the
 * request id and reads nothing of the page (KNOWN_PAGES: the account and its usage, for the
 * headers); the account's such pages that arrive while one runs go together in the next, as
 * below. A page of repeats it did not know (another process delivered them) costs the one round
 * trip, which then also writes nothing but the id (it holds the counters' lock only for its own
 * short statement) and waits for no flush.
 * One process sends one such statement per account (and held state) at a time: the calls of the
 * account that arrive while it runs go together in the next one, DELIVER_MANY (or
 * DELIVER_RECORD_MANY for details: meter_deliver_many, migration 012, which spends every call's
 * request id and then charges each call in order in one transaction, as consecutive statements
 * would; store/keyed-batches.ts). Each call keeps its own answer (its 409, its 402, its record),
 * and a statement that fails fails each of its calls as its own would.
 * A detail takes the same one round trip with its record (deliverRecord, DELIVER_RECORD): the
 * statement reads the live canonical record of the id and charges what it found, so the record
 * costs no round trip of its own; none found, it spends the request id and records nothing (404).
 * A one-round-trip statement that fails with an answer from the server committed nothing, so its
 * request id is spent on its own afterwards, as READ_PAGE would have spent it (contract §17.2).
 */
export class PgMeter implements Metering {
  private readonly now: () => Date;
  private readonly retentionEveryMs: number;
  private lastRetention: number;
  /** The retention run a spent id started last (tests await it; requests never do). */
  lastRetentionRun: Promise<RetentionRun | null> = Promise.resolve(null);
  private readonly timeoutMs: number;
  private readonly commitTimeoutMs: number;
  private readonly periodGuesses = new Lru<string, Date>(PERIOD_GUESSES);
  /** The period's delivered ids per account, between requests (exact: delivered-cache.ts). */
  private readonly delivered = new DeliveredCache();
  /** The WAL flush that makes asynchronously committed charges durable, shared (group-flush.ts). */
  private readonly durable: GroupFlush;
  /** Each account's billing state from its latest READ_PAGE: the one-round-trip charge's input. */
  private readonly billingStates = new Lru<string, BillingState>(PERIOD_GUESSES);
  /** Page ids seen delivered, by account and period: a page of them only needs KNOWN_PAGES. */
  private readonly known = new KnownDelivered();
  /**
   * The one-round-trip statements, one at a time per account, held state and kind: the calls that
   * arrive meanwhile go together in the next (DELIVER_MANY, DELIVER_RECORD_MANY).
   */
  readonly oneTrips: KeyedBatches<OneTrip, DeliverRow | undefined>;
  /**
   * The first round trips of pages this process knows delivered, one statement at a time per
   * account and period: the pages that arrive meanwhile go together in the next (KNOWN_PAGES).
   */
  readonly knownPages: KeyedBatches<KnownPage, KnownRead>;

  constructor(
    private readonly pool: Pool,
    options: MeterOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.retentionEveryMs = options.retentionEveryMs ?? 10 * 60_000;
    // The first run comes one interval after start: a fleet restarting does not vacuum at once.
    this.lastRetention = this.now().getTime();
    this.timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? 5000));
    // Its COMMIT is not cut by the statements' deadline: it waits up to its own
    // (POSTGRES_COMMIT_TIMEOUT_MS), and one left unconfirmed is said to be unknown (pg-errors.ts).
    this.commitTimeoutMs =
      options.commitTimeoutMs ?? Math.max(this.timeoutMs, DEFAULT_COMMIT_TIMEOUT_MS);
    this.durable = new GroupFlush(() => flushStatement(pool, DURABLE, this.commitTimeoutMs));
    // A call waits for its account's statement in flight no longer than a statement may take
    // (POSTGRES_TIMEOUT_MS): then it is a 503 that recorded nothing, not a second deadline.
    const queueWaitMs = options.queueWaitMs ?? this.timeoutMs;
    this.oneTrips = new KeyedBatches(
      (calls) => this.sendOneTrips(calls),
      MAX_ONE_TRIPS_A_STATEMENT,
      queueWaitMs,
    );
    this.knownPages = new KeyedBatches(
      (calls) => this.readKnownPages(calls),
      MAX_ONE_TRIPS_A_STATEMENT,
      queueWaitMs,
    );
  }

  /**
   * Spends the ticket's id on its own (contract §17.2): for a call whose delivery does not spend
   * it. 409 duplicate_request_id when the account already spent it. Committed asynchronously: no
   * disk flush on the hot path. A Postgres crash can then forget ids spent in its last fraction of
   * a second, so a reuse of one is served instead of refused; an id whose request went on to
   * deliver is durable anyway, because the delivery's flush covers the log up to it.
   */
  async spendRequestId(subject: BillingSubject, ticket: RequestTicket): Promise<void> {
    if (ticket.spent) return;
    const { spend } = await failClosed(() =>
      runBatch(this.pool, { spend: spendStatement(subject, ticket) }, this.asyncSettings()),
    );
    this.settle(ticket, spend.rowCount === 1);
  }

  /** Marks the ticket spent; 409 when its id was spent before. */
  private settle(ticket: RequestTicket, fresh: boolean): void {
    ticket.spent = true;
    if (!fresh) throw duplicateRequestId();
    // The retention step rides along now and then instead of on a timer, off the request's path.
    const now = this.now().getTime();
    if (this.retentionEveryMs > 0 && now - this.lastRetention >= this.retentionEveryMs) {
      this.lastRetention = now;
      this.lastRetentionRun = this.retain().catch(() => null);
    }
  }

  /**
   * The ledger's retention (docs/operations.md): deletes request ids spent more than 7 days ago
   * (contract §17.4) and the deliveries of periods that ended more than DELIVERY_RETENTION_DAYS
   * ago, in bounded batches, then vacuums and analyses the tables every request writes (the
   * service cannot count on autovacuum). One process at a time; the others skip.
   */
  retain(): Promise<RetentionRun> {
    const now = this.now().getTime();
    const idCutoff = new Date(now - REQUEST_ID_RETENTION_DAYS * DAY_MS);
    const periodCutoff = new Date(now - DELIVERY_RETENTION_DAYS * DAY_MS);
    return failClosed(() =>
      withWatchedClient(this.pool, async (client) => {
        const { rows } = await client.query<{ locked: boolean }>(RETENTION_LOCK);
        if (!rows[0]?.locked) return { requestIds: 0, deliveries: 0, ran: false };
        try {
          const requestIds = await inBatches((batch) =>
            client.query(prepared('prune_request_ids', PRUNE_REQUEST_IDS, [idCutoff, batch])),
          );
          const deliveries = await inBatches((batch) =>
            client.query(prepared('prune_deliveries', PRUNE_DELIVERIES, [periodCutoff, batch])),
          );
          for (const table of VACUUMED_TABLES) await client.query(`VACUUM (ANALYZE) ${table}`);
          return { requestIds, deliveries, ran: true };
        } finally {
          await client.query(RETENTION_UNLOCK);
        }
      }),
    );
  }

  /**
   * Records what a response is about to deliver and charges for it (contract §16.3). Throws 402
   * insufficient_balance or opportunity_quota_exhausted with nothing recorded or charged, and 503
   * metering_unavailable when the store fails. A ticket not yet spent is spent by the delivery's
   * first round trip: 409 duplicate_request_id before anything is delivered when it was spent
   * before; it stays spent whatever follows (402, 503).
   */
  async deliver(
    subject: BillingSubject,
    ticket: RequestTicket,
    opportunityIds: readonly string[],
    rules: PageRules = {},
  ): Promise<PageDelivery> {
    const delivery = await this.deliverOnce(subject, ticket, opportunityIds, rules);
    return rules.maxNew === undefined
      ? delivery
      : this.budgetSpent(subject, ticket, opportunityIds, rules.maxNew, rules, delivery);
  }

  /**
   * contract §11.2 under parallel pages of one account: max_new cuts a page by what was new when
   * it was read, and a parallel page may deliver some of those records before this one charges
   * them, so the page stopped for a budget it did not spend. It goes on with the rest of its ids
   * (the ticket is spent by then), a delivery of its own each time, until the budget is spent or
   * the page is done (at most twice more). What was delivered stands: when the rest cannot be
   * delivered (402, 503), the page ends where it is, short as it was before.
   */
  private async budgetSpent(
    subject: BillingSubject,
    ticket: RequestTicket,
    opportunityIds: readonly string[],
    maxNew: number,
    rules: PageRules,
    first: PageDelivery,
  ): Promise<PageDelivery> {
    let total = first;
    for (let round = 0; round < 2; round++) {
      const left = maxNew - total.newCount;
      if (left <= 0 || total.consumed >= opportunityIds.length) return total;
      let more: PageDelivery;
      try {
        const rest = opportunityIds.slice(total.consumed);
        more = await this.deliverOnce(subject, ticket, rest, { ...rules, maxNew: left });
      } catch (err) {
        if (err instanceof ApiError) return total;
        throw err;
      }
      total = joined(total, more);
      if (more.consumed === 0) return total;
    }
    return total;
  }

  private async deliverOnce(
    subject: BillingSubject,
    ticket: RequestTicket,
    opportunityIds: readonly string[],
    rules: PageRules,
  ): Promise<PageDelivery> {
    // Zero-result pages consume nothing (contract §16.2): no write but the request id.
    if (opportunityIds.length === 0) {
      await this.spendRequestId(subject, ticket);
      return noDelivery(await this.snapshot(subject));
    }
    const held = this.usableState(subject.accountId);
    // max_new and unseen_only decide in JavaScript, between the read and the charge.
    const cutRules = rules.maxNew !== undefined || rules.newOnly === true;
    // A page of ids all seen delivered this period needs one read, which writes nothing but the
    // request id (KNOWN_PAGES, shared with the account's other such pages).
    const known =
      held !== null && this.known.all(subject.accountId, held.period.start, opportunityIds);
    const inOneTrip =
      held &&
      !cutRules &&
      !known &&
      (await this.deliverInOneTrip(subject, ticket, held, { pageIds: opportunityIds }));
    if (inOneTrip) {
      metrics.delivered(inOneTrip.delivery);
      return inOneTrip.delivery;
    }
    const repeats =
      known && held && (await this.deliverKnown(subject, ticket, held, opportunityIds, rules));
    if (repeats) {
      metrics.delivered(repeats);
      return repeats;
    }
    const read = await failClosed(() => this.readPage(subject, ticket, opportunityIds));
    const fresh = new Set(read.newIds);
    if (!known) {
      const delivered = opportunityIds.filter((id) => !fresh.has(id));
      this.known.add(subject.accountId, read.period.start, delivered);
    }
    // max_new and unseen_only cut the page by what is new (contract §11).
    const cut = cutPage(opportunityIds, fresh, rules);
    const result =
      cut.newIds.length === 0
        ? noDelivery(buildSnapshot(read.account, read.period, read.usage, read.key), cut)
        : await this.charge(subject, ticket, read, cut, rules);
    // After the commit: only what was recorded and charged is counted.
    metrics.delivered(result);
    return result;
  }

  /**
   * A page of ids this process knows delivered this period (known-delivered.ts): ONE statement
   * spends the request id and reads the account's usage, shared with the account's other such
   * pages that arrive while one runs (KNOWN_PAGES through `knownPages`). Null when the account's
   * period is no longer the held one (an admin's change): the held state is dropped, the ticket is
   * spent by then, and the page takes READ_PAGE, which reads the deliveries of the new period.
   */
  private async deliverKnown(
    subject: BillingSubject,
    ticket: RequestTicket,
    held: BillingState,
    pageIds: readonly string[],
    rules: PageRules,
  ): Promise<PageDelivery | null> {
    const { accountId } = subject;
    const read = await failClosed(() =>
      this.knownPages.run(`${accountId} ${held.period.start.getTime()}`, {
        accountId,
        keyId: subject.keyId,
        periodStart: held.period.start,
        requestId: ticket.spent ? null : ticket.id,
      }),
    );
    if (!ticket.spent) this.settle(ticket, read.fresh);
    const { account } = read;
    const period = periodOf(account, this.now());
    if (period.start.getTime() !== held.period.start.getTime()) {
      // Held no more: READ_PAGE_HOLDING then reads the account's state afresh.
      this.billingStates.delete(accountId);
      return null;
    }
    const usage = buildSnapshot(account, period, read.usage, read.key);
    return noDelivery(usage, cutPage(pageIds, new Set(), rules));
  }

  /**
   * Sends one lane's known pages (one account and period) as ONE KNOWN_PAGES statement. Of calls
   * that share a request id, the first spends it and the others are its repeats (409), as
   * consecutive statements would decide.
   */
  private async readKnownPages(calls: KnownPage[]): Promise<KnownRead[]> {
    const [first] = calls;
    if (!first) return [];
    const { rows } = await this.pool.query<KnownPagesRow>(
      prepared('known_pages', KNOWN_PAGES, [
        first.accountId,
        first.periodStart,
        calls.map((c) => c.requestId),
        calls.map((c) => c.keyId),
      ]),
    );
    const row = rows[0];
    if (!row) throw new Error(`account ${first.accountId} not found`);
    // The one row read once for all the calls.
    const account = toAccountBilling(row);
    const usage = toUsage(row);
    const unclaimed = new Set(row.spent_ids);
    return calls.map((c, i) => ({
      account,
      usage,
      key: {
        keyId: c.keyId,
        allowance: row.key_allowances[i] ?? null,
        includedUsed: row.key_included_used[i] ?? 0,
      },
      fresh: c.requestId !== null && unclaimed.delete(c.requestId),
    }));
  }

  /**
   * A detail in ONE round trip where a page of its one id would take one (DELIVER_RECORD: the
   * record is read by the statement that charges it); otherwise lookUpThenDeliver's two steps.
   */
  async deliverRecord(
    subject: BillingSubject,
    ticket: RequestTicket,
    id: string,
    find: RecordFinder,
  ): Promise<RecordDelivery | null> {
    const held = this.usableState(subject.accountId);
    const inOneTrip =
      held &&
      !this.known.all(subject.accountId, held.period.start, [id]) &&
      (await this.deliverInOneTrip(subject, ticket, held, { recordId: id }));
    if (!inOneTrip) return lookUpThenDeliver(this, subject, ticket, id, find);
    metrics.delivered(inOneTrip.delivery);
    const { record } = inOneTrip.row;
    return record ? { record, delivery: inOneTrip.delivery } : null;
  }

  /**
   * Step 1 of a delivery, one round trip (READ_PAGE) when the account's period is known from an
   * earlier call (a guess, checked against the account read with it; a wrong one reads again). The
   * id is spent by the same statement as the read, and stays spent whatever the read finds.
   */
  private async readPage(
    subject: BillingSubject,
    ticket: RequestTicket,
    pageIds: readonly string[],
  ): Promise<PageRead> {
    const now = this.now();
    const guess = this.periodGuesses.get(subject.accountId, { use: false }) ?? NO_GUESS;
    const newIdsOf = (start: Date) => [subject.accountId, subject.keyId, start, pageIds] as const;
    const values = [...newIdsOf(guess), ticket.spent ? null : ticket.id];
    // The fingerprint only when the process is to hold the account's billing state from this read.
    const hold = this.usableState(subject.accountId) === null;
    const { rows } = await this.pool.query<ReadPageRow>(
      hold
        ? prepared('read_page_holding', READ_PAGE_HOLDING, values)
        : prepared('read_page', READ_PAGE, values),
    );
    const row = rows[0];
    if (!ticket.spent) this.settle(ticket, row?.spent === 1);
    if (!row) throw new Error(`account ${subject.accountId} not found`);
    let account = toAccountBilling(row);
    const period = periodOf(account, now);
    this.rememberPeriod(subject.accountId, period);
    if (row.billing_fingerprint !== undefined) {
      this.billingStates.set(subject.accountId, {
        fingerprint: row.billing_fingerprint,
        account,
        period,
      });
    }
    let state: UsageAndNewRow | undefined = row;
    if (guess.getTime() !== period.start.getTime()) {
      // Read again for the right period, the account with it (the id is not spent twice): a
      // balance from the first read beside a usage from the second were two moments, and a charge
      // another process committed between them was shown as a balance from before it next to a
      // Used from after it.
      const again = (
        await this.pool.query<ReadPageRow>(
          prepared('read_page', READ_PAGE, [...newIdsOf(period.start), null]),
        )
      ).rows[0];
      if (again) account = toAccountBilling(again);
      state = again;
    }
    if (!state?.key_found)
      throw new Error(`key ${subject.keyId} is not of account ${subject.accountId}`);
    const key = {
      keyId: subject.keyId,
      allowance: state.key_allowance,
      includedUsed: state.key_included_used ?? 0,
    };
    return { account, period, usage: toUsage(state), key, newIds: state.new_ids };
  }

  /**
   * Step 2: the charge of the ids found new (see the class comment and migration 008). A refusal
   * for the page's cost comes back from the statement as a value, after the rows it inserted were
   * deleted again; its message is allocate()'s, from the figures the statement decided on.
   */
  private async charge(
    subject: BillingSubject,
    ticket: RequestTicket,
    read: PageRead,
    cut: PageCut,
    rules: PageRules,
  ): Promise<PageDelivery> {
    const { account, period } = read;
    // BEGIN, the charge and COMMIT in one round trip: the counters' lock is released at the
    // server's COMMIT, never held while this process gets round to sending one.
    const inOneTrip = {
      query: (text: string) =>
        transactionInOneTrip(this.pool, text, { commitTimeoutMs: this.commitTimeoutMs }),
    };
    const { charge } = await failClosed(async () => {
      const results = await runBatch(
        inOneTrip,
        {
          charge: statement(CHARGE, [
            subject.accountId,
            subject.keyId,
            period.start,
            period.end,
            cut.newIds,
            ticket.id,
            accountAllowance(account.plan, account.settings).allowance,
            account.settings.billingModel,
            PRICE_PER_OPPORTUNITY_MILLICENTS,
          ]),
        },
        {
          begin: true,
          commit: true,
          settings: { timeoutMs: this.timeoutMs, asynchronousCommit: true },
        },
      );
      // Durable before the page goes out, in a flush shared with the account's other charges.
      await this.durable.after();
      return results;
    });
    const row = charge.rows[0] as ChargeRow | undefined;
    const charged = chargedPage(subject, account, period, row, read.key);
    // Committed and durable: each candidate was recorded, by this page or a concurrent one.
    this.known.add(subject.accountId, period.start, cut.newIds);
    // An id found new by the read but recorded meanwhile by a concurrent page of the account is a
    // repeat here, free; unseen_only leaves it out (contract §11.1).
    const mine = new Set(charged.recorded);
    const servedIds = rules.newOnly
      ? cut.served.filter((id) => mine.has(id) || !cut.newIds.includes(id))
      : cut.served;
    return { ...charged.outcome, servedIds, consumed: cut.consumed };
  }

  /**
   * The account's held billing state while it can serve the one round trip (see the class
   * comment): held, and its period still the current one.
   */
  private usableState(accountId: string): BillingState | null {
    const held = this.billingStates.get(accountId);
    if (!held) return null;
    const period = periodOf(held.account, this.now());
    const same =
      period.start.getTime() === held.period.start.getTime() &&
      period.end.getTime() === held.period.end.getTime();
    return same ? held : null;
  }

  /**
   * A page without cut rules in ONE round trip (meter_deliver, migration 011), or a detail's record
   * read and delivered in one (DELIVER_RECORD); null when the held state proved stale (dropped;
   * nothing was written, the ticket is still unspent).
   */
  private async deliverInOneTrip(
    subject: BillingSubject,
    ticket: RequestTicket,
    held: BillingState,
    what: { pageIds: readonly string[] } | { recordId: string },
  ): Promise<{ delivery: PageDelivery; row: DeliverRow } | null> {
    const { account, period } = held;
    const spend = !ticket.spent;
    const detail = 'recordId' in what;
    // Calls share a statement only under the same held state, and details only with details.
    const lane = [
      subject.accountId,
      detail ? 'record' : 'page',
      held.fingerprint,
      period.start.getTime(),
      period.end.getTime(),
    ].join(' ');
    const row = await failClosed(async () => {
      try {
        return await this.oneTrips.run(lane, { subject, held, what, requestId: ticket.id, spend });
      } catch (err) {
        // The server answered with an error: nothing committed, the id included.
        if (spend && err instanceof DatabaseError) await this.spendAfterRollback(subject, ticket);
        throw err;
      }
    });
    if (row?.outcome === 'stale') {
      this.billingStates.delete(subject.accountId);
      return null;
    }
    if (spend) this.settle(ticket, row?.outcome !== 'duplicate_request_id');
    // Durable before the page (or its 402) goes out, in the flush shared with the other charges.
    if (row && FLUSHED_OUTCOMES.has(row.outcome)) await failClosed(() => this.durable.after());
    const charged = chargedPage(subject, account, period, row, {
      keyId: subject.keyId,
      allowance: row?.key_allowance ?? null,
      includedUsed: row?.key_included_used ?? 0,
    });
    // A detail's page is its record's id when the statement found the record, else empty.
    const pageIds = detail ? (row?.record ? [what.recordId] : []) : what.pageIds;
    // Every id of the page is delivered now, by this page or an earlier one.
    this.known.add(subject.accountId, period.start, pageIds);
    // No cut rules: every id is served; the ids recorded are the page's new ones.
    const cut = cutPage(pageIds, new Set(charged.recorded));
    return {
      delivery: { ...charged.outcome, servedIds: cut.served, consumed: cut.consumed },
      row: row as DeliverRow,
    };
  }

  /**
   * Sends one lane's calls (all of one account, held state and kind): one call as DELIVER or
   * DELIVER_RECORD, several as one DELIVER_MANY or DELIVER_RECORD_MANY. Either way ONE
   * autocommitted statement, answering a row per call in the calls' order.
   */
  private async sendOneTrips(calls: OneTrip[]): Promise<Array<DeliverRow | undefined>> {
    const [first] = calls;
    if (!first) return [];
    const { subject, held } = first;
    const { account, period } = held;
    const detail = 'recordId' in first.what;
    const idsOf = (call: OneTrip) =>
      'recordId' in call.what ? call.what.recordId : call.what.pageIds;
    const tail = [
      accountAllowance(account.plan, account.settings).allowance,
      account.settings.billingModel,
      PRICE_PER_OPPORTUNITY_MILLICENTS,
      this.timeoutMs,
    ];
    const query =
      calls.length === 1
        ? prepared(detail ? 'deliver_record' : 'deliver', detail ? DELIVER_RECORD : DELIVER, [
            subject.accountId,
            subject.keyId,
            held.fingerprint,
            period.start,
            period.end,
            idsOf(first),
            first.requestId,
            first.spend,
            ...tail,
          ])
        : prepared(
            detail ? 'deliver_record_many' : 'deliver_many',
            detail ? DELIVER_RECORD_MANY : DELIVER_MANY,
            [
              subject.accountId,
              held.fingerprint,
              period.start,
              period.end,
              calls.map((c) => c.subject.keyId),
              calls.map((c) => {
                const ids = idsOf(c);
                return typeof ids === 'string' ? ids : ids.join(',');
              }),
              calls.map((c) => c.requestId),
              calls.map((c) => c.spend),
              ...tail,
            ],
          );
    const result = (await transactionInOneTrip(this.pool, query, {
      commitTimeoutMs: this.commitTimeoutMs,
    })) as QueryResult<DeliverRow>;
    const rows = calls.length === 1 ? [result.rows[0]] : result.rows;
    // The statement read each key's included use once, before any of its calls charged: a call
    // sees what the earlier calls of its key were given, as consecutive statements would.
    const given = new Map<string, number>();
    rows.forEach((row, i) => {
      const keyId = calls[i]?.subject.keyId;
      if (!row || keyId === undefined) return;
      const before = given.get(keyId) ?? 0;
      row.key_included_used = (row.key_included_used ?? 0) + before;
      given.set(keyId, before + (row.included ?? 0));
    });
    return rows;
  }

  /**
   * After a one-round-trip statement that committed nothing: spends the ticket's id on its own, as
   * READ_PAGE would have before the charge failed (contract §17.2: a 503 spends its id). A 409 from
   * it is the answer (the id was spent before); any other failure leaves the first error.
   */
  private async spendAfterRollback(subject: BillingSubject, ticket: RequestTicket): Promise<void> {
    try {
      await this.spendRequestId(subject, ticket);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'duplicate_request_id') throw err;
    }
  }

  /** Read-only, takes no lock: the 304 of a page of repeats (contract §13). */
  deliveredPrefix(accountId: string, periodStart: Date, ids: readonly string[]): Promise<number> {
    return failClosed(() => deliveredPrefix(this.pool, accountId, periodStart, ids));
  }

  /** The current period's delivered ids and remaining included allowance (contract §10.3, §11.1). */
  periodDeliveries(subject: BillingSubject): Promise<PeriodDeliveries> {
    return failClosed(async () => {
      const now = this.now();
      const { rows } = await this.pool.query<AccountRow>(
        prepared('account_row', ACCOUNT_ROW, [subject.accountId]),
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
  async snapshot(subject: UsageSubject): Promise<UsageSnapshot> {
    // Only the subject's own fields: a caller may pass a wider object (a BillingSubject).
    const who = { accountId: subject.accountId, keyId: subject.keyId };
    const snapshot = (await this.snapshots([who])).get(usageKey(who));
    if (!snapshot) throw new Error(`account ${subject.accountId} not found`);
    return snapshot;
  }

  snapshots(
    subjects: readonly (string | UsageSubject)[],
  ): Promise<ReadonlyMap<string, UsageSnapshot>> {
    // A key's own allowance is read with the account: the keyed statement, else the plain one.
    if (subjects.some((s) => typeof s !== 'string' && s.keyId !== undefined))
      return this.keySnapshots(subjects);
    const pairs = subjects.map((s) => ({ accountId: typeof s === 'string' ? s : s.accountId }));
    return failClosed(async () => {
      const reads = await this.usageRows(pairs, (starts, of) =>
        this.pool.query<AccountUsageRow>(
          prepared('accounts_with_usage', ACCOUNTS_WITH_USAGE, [
            of.map((p) => p.accountId),
            starts,
          ]),
        ),
      );
      const found = new Map<string, UsageSnapshot>();
      for (const read of reads)
        found.set(
          read.row.account_id,
          this.snapshotOf(read, () => null),
        );
      return found;
    });
  }

  /**
   * snapshots() when some subjects are keys: the account's usage and each key's own allowance
   * with its included use, in ONE read (ACCOUNT_KEYS_WITH_USAGE), by usageKey.
   */
  private keySnapshots(
    subjects: readonly (string | UsageSubject)[],
  ): Promise<ReadonlyMap<string, UsageSnapshot>> {
    const pairs = subjects.map((s) =>
      typeof s === 'string' ? { accountId: s, keyId: null } : { ...s, keyId: s.keyId ?? null },
    );
    return failClosed(async () => {
      const reads = await this.usageRows(pairs, (starts, of) =>
        this.pool.query<AccountKeyUsageRow>(
          prepared('account_keys_with_usage', ACCOUNT_KEYS_WITH_USAGE, [
            of.map((p) => p.accountId),
            starts,
            of.map((p) => p.keyId),
          ]),
        ),
      );
      const found = new Map<string, UsageSnapshot>();
      for (const read of reads) {
        const { row } = read;
        const { key_id: keyId } = row;
        const snapshot = this.snapshotOf(read, () =>
          keyId === null
            ? null
            : { keyId, allowance: row.key_allowance, includedUsed: row.key_included_used ?? 0 },
        );
        found.set(usageKey({ accountId: row.account_id, keyId: keyId ?? undefined }), snapshot);
      }
      return found;
    });
  }

  /**
   * The rows of a usage read at each account's current period, each with its account and period
   * (worked out once, for the check and the snapshot). The read names the period it reads
   * (the start remembered for the account, a guess); an account whose guess was not its current
   * period (a first read, a period that ended or moved) is read again at the period its row gives,
   * at most twice more (an account changed between two reads; then 503 metering_unavailable).
   */
  private async usageRows<P extends { accountId: string }, R extends AccountUsageRow>(
    subjects: readonly P[],
    read: (starts: Date[], of: readonly P[]) => Promise<{ rows: R[] }>,
  ): Promise<UsageRead<R>[]> {
    const now = this.now();
    let pending = subjects.map((subject) => ({
      subject,
      start: this.periodGuesses.get(subject.accountId, { use: false }) ?? NO_GUESS,
    }));
    const settled: UsageRead<R>[] = [];
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { rows } = await read(
        pending.map((p) => p.start),
        pending.map((p) => p.subject),
      );
      const again = new Map<string, Date>();
      for (const row of rows) {
        const account = toAccountBilling(row);
        const period = periodOf(account, now);
        this.rememberPeriod(row.account_id, period);
        const { start } = period;
        if (start.getTime() === row.usage_guess.getTime()) settled.push({ row, account, period });
        else if (attempt < 3) again.set(row.account_id, start);
        // Its period changed between each of three reads: no figure is better than a wrong one.
        else throw meteringUnavailable(new Error(`account ${row.account_id}: period kept moving`));
      }
      pending = pending.flatMap(({ subject }) => {
        const start = again.get(subject.accountId);
        return start ? [{ subject, start }] : [];
      });
    }
    return settled;
  }

  /**
   * A settled usage read (its row is of the account's current period) as a snapshot, with the key
   * `keyOf` gives for that period (none: the account's own figures).
   */
  private snapshotOf(
    { row, account, period }: UsageRead<AccountUsageRow>,
    keyOf: (period: Period) => KeyUsage | null,
  ): UsageSnapshot {
    return buildSnapshot(account, period, toUsage(row), keyOf(period));
  }

  private asyncSettings() {
    return { settings: { timeoutMs: this.timeoutMs, asynchronousCommit: true } };
  }

  /** The account's period as last seen, bounded (oldest first out): only ever a guess, checked. */
  private rememberPeriod(accountId: string, period: Period): void {
    this.periodGuesses.set(accountId, period.start);
  }
}

/** A usage row read at the account's current period, with the account and the period. */
interface UsageRead<R> {
  row: R;
  account: AccountBilling;
  period: Period;
}

/**
 * A statement the meter runs on every count or delivery, prepared once per connection (a named
 * statement): Postgres then plans it once instead of on every call (Postgres CPU per request). The names are the meter's own, one per text.
 */
function prepared(name: string, text: string, values: unknown[]): QueryConfig {
  return { name: `meter_${name}`, text, values };
}

/**
 * The delivery meter_charge answered (directly, or through meter_deliver), held to the allocation's
 * invariants; a refusal becomes allocate()'s error for the same figures (402, nothing recorded).
 */
function chargedPage(
  subject: BillingSubject,
  account: AccountBilling,
  period: Period,
  row: ChargeRow | undefined,
  key: KeyUsage,
): { outcome: DeliveryOutcome; recorded: string[] } {
  if (!row || row.outcome === 'key_not_found')
    throw new Error(`key ${subject.keyId} is not of account ${subject.accountId}`);
  const included = row.included ?? 0;
  const payg = row.payg ?? 0;
  const balance = toSafeInteger(row.balance ?? '0');
  if (row.outcome === 'insufficient_balance' || row.outcome === 'opportunity_quota_exhausted') {
    // allocate() throws the refusal the in-memory meter throws for the same figures.
    allocate({
      newCount: included + payg,
      billingModel: account.settings.billingModel,
      includedAvailable: row.included_available ?? 0,
      balanceMillicents: balance,
    });
    throw new Error(`metering invariant broken: meter_charge refused what allocate() covers`);
  }
  if (row.outcome !== 'delivered' && row.outcome !== 'repeats')
    throw new Error(`metering invariant broken: unexpected outcome ${row.outcome}`);
  const recorded = row.new_ids ?? [];
  const chargeMillicents = toSafeInteger(row.charge ?? '0');
  if (
    included + payg !== recorded.length ||
    chargeMillicents !== payg * PRICE_PER_OPPORTUNITY_MILLICENTS
  ) {
    throw new Error('metering invariant broken: recorded deliveries differ from the allocation');
  }
  return {
    outcome: {
      newCount: recorded.length,
      includedNewCount: included,
      paygNewCount: payg,
      chargeMillicents,
      usage: buildSnapshot(
        { ...account, balanceMillicents: balance },
        period,
        toUsage(row),
        keyAfter(key, row),
      ),
    },
    recorded,
  };
}

/**
 * The key's included use after a charge, as far as its headers need it (contract §15.4). A charge
 * that allocated answers what the allowance covered under its lock (included_available, the
 * stricter of key and account); what is left is that less what it included. A key use that leaves
 * exactly that much of the key's allowance gives buildSnapshot the same remaining whichever of the
 * two was the stricter. A page of repeats allocated nothing: the use read before stands.
 */
function keyAfter(key: KeyUsage, row: ChargeRow): KeyUsage {
  const available = row.included_available;
  if (key.allowance === null || available === null || available === undefined) return key;
  const left = Math.max(0, available - (row.included ?? 0));
  return { ...key, includedUsed: Math.max(0, key.allowance - left) };
}

/** Runs a bounded delete until it deletes less than a batch; returns how many rows it deleted. */
async function inBatches(
  prune: (batch: number) => Promise<{ rowCount: number | null }>,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < RETENTION_BATCHES; i++) {
    const n = (await prune(RETENTION_BATCH)).rowCount ?? 0;
    total += n;
    if (n < RETENTION_BATCH) break;
  }
  return total;
}

/** The statement that spends a ticket's id. */
function spendStatement(subject: BillingSubject, ticket: RequestTicket): Statement {
  return statement(SPEND_REQUEST_ID, [subject.accountId, ticket.id]);
}

/** Two deliveries of one page, the second continuing where the first stopped (budgetSpent). */
function joined(a: PageDelivery, b: PageDelivery): PageDelivery {
  return {
    newCount: a.newCount + b.newCount,
    includedNewCount: a.includedNewCount + b.includedNewCount,
    paygNewCount: a.paygNewCount + b.paygNewCount,
    chargeMillicents: a.chargeMillicents + b.chargeMillicents,
    usage: b.usage,
    servedIds: [...a.servedIds, ...b.servedIds],
    consumed: a.consumed + b.consumed,
  };
}
