import {
  RequestTicket,
  type BillingSubject,
  type DeliveryOutcome,
  type Metering,
  type PageDelivery,
} from '../billing/metering';
import { UsageCache } from '../billing/usage-cache';
import {
  RateLimitExceeded,
  rateLimitHeaders,
  type RateDecision,
  type RateLimiting,
} from '../billing/rate-limit';
import { usageHeaders } from '../billing/headers';
import type { UsageSnapshot, UsageSubject } from '../billing/snapshot';
import type { UsageEnvelope } from '../domain/usage-envelope';
import { ApiError, badOpportunityId } from '../domain/errors';
import { isUuid } from '../domain/ids';
import {
  checkOnlyParams,
  parseRestQuery,
  parseToolArgs,
  type Endpoint,
  type ParsedRequest,
} from '../domain/filters';
import type { AuthContext } from './auth';
import type { Settings } from './context';
import type { Backends } from './read-backends';
import {
  listEnvelope,
  type CountEnvelope,
  type DetailEnvelope,
  type ListEnvelope,
} from './envelopes';
import { unlessGone, type ClientPresence } from './client-gone';
import { countFigures } from './count-extras';
import { countEnvelope } from './count-json';
import { ParsedRequests } from './parsed-requests';
import { UsageReads } from './usage-reads';
import { listRepresentationTag } from './list-json';
import { searchPage, type Page } from './opportunity-search';
import { servedPage } from './served-page';
import { pageWithinBytes, type EnvelopeOf } from './result-budget';
import { projection, sparseRecord } from '../domain/sparse-fields';
import { recordShaper } from './shaped-records';
import { usageEnvelope } from './usage';
import type { ChangesEnvelope } from '../domain/changes-envelope';
import { changeFeedPage, parseChangesQuery } from './change-feed';
import { isStoreUnavailable, meteringUnavailable } from '../billing/pg-errors';
import type { Revalidation } from './revalidation';
import { ExpensiveGate } from './expensive-gate';

/** Who is asking, as the REST and MCP adapters both establish it. */
export interface Caller {
  auth: AuthContext;
  requestId: string;
  marketplaceVerified: boolean;
  /**
   * `aborted` once the client has closed its connection without its answer: a page is then not
   * charged (client-gone.ts). Absent where the adapter cannot tell.
   */
  gone?: ClientPresence;
}

/** contract §21.11: the byte budget of one tool result's text block (MCP_MAX_RESULT_BYTES). */
export interface ResultBudget {
  maxBytes: number;
}

/** How often an unseen_only page is searched when parallel pages keep taking its records. */
const UNSEEN_ATTEMPTS = 3;

/**
 * Whether an unseen_only page came back empty though it found records: every one it considered
 * was not new any more, because a parallel page of the account delivered it first. Only then is
 * the search repeated: a page that served some records has delivered and charged them, so it is
 * answered as it is (shorter, its cursor resuming after them, contract §11.2).
 */
function lostToParallelPage(delivery: PageDelivery): boolean {
  return delivery.servedIds.length === 0 && delivery.consumed > 0;
}

/** What GET /v1/opportunities/{id} takes besides its path (contract §7.6). */
const DETAIL_PARAMETERS = ['fields'];

/** Filters as they arrive: a REST query string or MCP tool arguments. */
export type FilterInput =
  | { from: 'rest'; query: Record<string, unknown> }
  | { from: 'tool'; args: Record<string, unknown> };

export interface Served<T> {
  body: T;
  /** Rate limit and usage headers of contract §18. */
  headers: Record<string, string>;
  /** The entity tag of a list or count (contract §13), for the REST adapter's ETag. */
  etag?: string;
  /** 304: the client's copy is current; send the headers and no body (contract §13). */
  notModified?: boolean;
}

/** A read refused with a typed error, and the headers of contract §18 that still go out with it. */
export interface Refused {
  ok: false;
  error: ApiError;
  headers: Record<string, string>;
}

/**
 * What every read hands its adapter: served, or refused with its error; either way with its
 * headers. Expected failures come back as values: no error is changed after it was thrown, and one
 * presenter (adapter/presenter.ts) writes both kinds for REST and MCP.
 */
export type Outcome<T> = ({ ok: true } & Served<T>) | Refused;

/** What a call's work hands back to serve(). */
interface Work<T> {
  body: T;
  usage: Record<string, string>;
  etag?: string;
  notModified?: boolean;
}

/**
 * The authenticated read surface that REST and MCP both call, so they share data, quota, rate
 * limits and ledger. Every outcome, success or ApiError, carries the headers of contract §18.
 */
export class ReadService {
  private readonly index: Backends['index'];
  private readonly records: Backends['records'];
  private readonly changeLog: Backends['changes'];
  private readonly meter: Metering;
  private readonly limits: RateLimiting;
  /** contract §19.8: free but expensive reads in flight per account. */
  private readonly expensive: ExpensiveGate;
  /** Counts' parsed queries by their raw parameters. */
  private readonly parsedCounts = new ParsedRequests();
  /** Counts' usage reads: one for all the accounts of an event-loop turn. */
  private readonly countUsage = new UsageReads((subjects) => this.meter.snapshots(subjects));

  constructor(
    private readonly deps: Pick<Settings, 'env' | 'logger' | 'cursor' | 'taxonomy'>,
    backends: Pick<Backends, 'index' | 'records' | 'changes' | 'meter' | 'limits'>,
    private readonly usage = new UsageCache(),
  ) {
    ({
      index: this.index,
      records: this.records,
      changes: this.changeLog,
      meter: this.meter,
      limits: this.limits,
    } = backends);
    this.expensive = new ExpensiveGate(deps.env.EXPENSIVE_IN_FLIGHT_PER_ACCOUNT, this.limits);
  }

  /**
   * A list page. With `revalidation` (If-None-Match), the request id is spent only when the answer
   * is not 304: a 304 needs the same page (same ETag) and every record on it already delivered
   * this period, so it consumes nothing (contract §13).
   */
  list(
    caller: Caller,
    input: FilterInput,
    revalidation?: Revalidation,
    budget?: ResultBudget,
  ): Promise<Outcome<ListEnvelope>> {
    // A 304 spends no request id (its ticket stays unspent); any other answer spends it, by the
    // delivery or, when the call fails first, by serve's one spend-on-failure path.
    return this.serve(caller, true, async (ticket, window) => {
      const accountId = caller.auth.account.id;
      const request = this.parse('list', input, caller);
      const shape = recordShaper(request.options.fields);
      const envelopeOf: EnvelopeOf = (p) =>
        listEnvelope(
          shape(p.records),
          p.nextCursor,
          request.limit,
          caller.requestId,
          request.appliedFilters,
        );
      const unseenOnly = request.filter.unseen_only === true;
      /** One search of the page and its delivery; a 304 instead when revalidation allows it. */
      const searchAndDeliver = async () => {
        // contract §11.1: unseen_only leaves out what the account already received this period.
        const exclude = unseenOnly
          ? (await this.meter.periodDeliveries(subject(caller))).delivered
          : undefined;
        const found = await searchPage(this.index, this.deps.cursor, request, accountId, {
          exclude,
        });
        // contract §21.11: cut to the result budget before metering, so what is left out is never
        // delivered or charged.
        const page = budget
          ? await pageWithinBytes(this.deps.cursor, found, envelopeOf, budget.maxBytes, accountId)
          : found;
        const body = envelopeOf(page);
        const notModified = revalidation
          ? await this.unchangedRepeats(caller, page, body, envelopeOf, {
              revalidation,
              cutAtFirstNew: request.options.maxNew === 0,
            })
          : null;
        if (notModified) return { notModified };
        unlessGone(caller.gone);
        const outcome = this.delivered(
          caller,
          await this.meter.deliver(
            subject(caller),
            ticket,
            page.records.map((r) => r.id),
            { maxNew: request.options.maxNew, newOnly: unseenOnly },
          ),
        );
        // max_new and unseen_only may cut the page under the account lock (contract §11).
        const served = await servedPage(this.deps.cursor, page, outcome, accountId);
        return { page, body, outcome, served };
      };
      // contract §19.8: one slot for the whole call, its searches again included. Taken for each
      // search, a later one refused 429 after the first delivery had spent the request id.
      const done = await this.expensive.run(accountId, request, window, async () => {
        let last = await searchAndDeliver();
        // contract §16.4: contention is resolved by waiting, not by an empty page. When parallel
        // pages of the account delivered every record found first, search again from the same
        // position, now without them. The first delivery spent the request id and delivered and
        // charged nothing.
        for (let attempt = 1; attempt < UNSEEN_ATTEMPTS; attempt++) {
          if (last.notModified || !unseenOnly || !lostToParallelPage(last.outcome)) break;
          last = await searchAndDeliver();
        }
        return last;
      });
      if (done.notModified) return done.notModified;
      const { page, body, outcome, served } = done;
      const servedBody = served === page ? body : envelopeOf(served);
      return {
        body: servedBody,
        usage: usageHeaders(outcome.usage, outcome, {
          marketplaceVerified: caller.marketplaceVerified,
        }),
        // Only REST sends an ETag; an MCP reply carries none, so its page is not hashed for one.
        ...(input.from === 'rest' ? { etag: listRepresentationTag(servedBody) } : {}),
      };
    });
  }

  /**
   * A count; 304 when `revalidation` matches its ETag (counts are free either way). A repeated
   * count (a dashboard refreshing) reuses its parsed query and its envelope's JSON and entity tag
   *. Its usage headers are read from the ledger beside the figures, in one read
   * shared by the account's counts of the same event-loop turn, sent after all of them arrived
   * (usage-reads.ts).
   */
  count(
    caller: Caller,
    input: FilterInput,
    revalidation?: Revalidation,
  ): Promise<Outcome<CountEnvelope>> {
    return this.serve(caller, false, async (_ticket, window) => {
      const request = this.parsedCounts.parse('count', input, {
        taxonomy: this.deps.taxonomy,
        maxPageSize: caller.auth.limits.pageSize,
      });
      const [figures, usage] = await this.expensive.run(
        caller.auth.account.id,
        request,
        window,
        async () => {
          // Started once the call is admitted (a refused call costs the ledger nothing). The
          // figures' failure, when both fail, is the one reported, as when they ran in turn.
          const who = usageSubject(caller);
          const usage = this.countUsage.snapshot(who).then((snapshot) => {
            this.usage.remember(who, snapshot);
            return usageHeaders(snapshot, null, {
              marketplaceVerified: caller.marketplaceVerified,
            });
          });
          usage.catch(() => undefined);
          const figures = await countFigures(
            this.index,
            this.meter,
            subject(caller),
            request,
            this.deps.env.MIN_AGGREGATE_COUNT,
          );
          return [figures, await usage] as const;
        },
      );
      const { body, etag } = countEnvelope(request, figures, caller.requestId);
      return { body, usage, etag, notModified: revalidation?.(etag) === true };
    });
  }

  /**
   * The 304 of a list page (contract §13), or null: the client's tag matches the page that would be
   * served and the account already received every record on it this period, so serving it would
   * consume nothing. With `max_new=0` the page served is the records before the first new one
   * (contract §11.2, page-budget.ts's cutPage): that cut page, repeats only, is the one whose tag a
   * client holds.
   */
  private async unchangedRepeats(
    caller: Caller,
    page: Page,
    body: ListEnvelope,
    envelopeOf: EnvelopeOf,
    options: { revalidation: Revalidation; cutAtFirstNew: boolean },
  ): Promise<Work<ListEnvelope> | null> {
    const { revalidation, cutAtFirstNew } = options;
    let served = { body, etag: listRepresentationTag(body) };
    // Without the cut, a tag of another page needs no look at the ledger.
    if (!cutAtFirstNew && !revalidation(served.etag)) return null;
    const accountId = caller.auth.account.id;
    const snapshot = await this.meter.snapshot(usageSubject(caller));
    const ids = page.records.map((r) => r.id);
    const repeats = await this.meter.deliveredPrefix(accountId, snapshot.periodStart, ids);
    if (repeats < ids.length) {
      if (!cutAtFirstNew) return null;
      const cut = { consumed: repeats, servedIds: ids.slice(0, repeats) };
      const cutBody = envelopeOf(await servedPage(this.deps.cursor, page, cut, accountId));
      served = { body: cutBody, etag: listRepresentationTag(cutBody) };
    }
    if (!revalidation(served.etag)) return null;
    this.usage.remember(usageSubject(caller), snapshot);
    const usage = usageHeaders(snapshot, null, { marketplaceVerified: caller.marketplaceVerified });
    return { ...served, usage, notModified: true };
  }

  /** The change feed (contract §12): metered like list, tombstones free. REST only. */
  changes(caller: Caller, query: Record<string, unknown>): Promise<Outcome<ChangesEnvelope>> {
    return this.serve(caller, true, async (ticket) => {
      const request = parseChangesQuery(query, caller.auth.limits.pageSize, this.deps);
      const page = await changeFeedPage(
        this.deps.cursor,
        this.changeLog,
        request,
        caller.auth.account.id,
        caller.requestId,
      ).catch((err: unknown) => {
        throw storeError(err);
      });
      unlessGone(caller.gone);
      const outcome = this.delivered(
        caller,
        await this.meter.deliver(subject(caller), ticket, page.recordIds),
      );
      return {
        body: page.body,
        usage: usageHeaders(outcome.usage, outcome, {
          marketplaceVerified: caller.marketplaceVerified,
        }),
      };
    });
  }

  /** One record; `options` carries its `fields` (contract §7.6), read by the list's rules. */
  detail(caller: Caller, id: unknown, options?: FilterInput): Promise<Outcome<DetailEnvelope>> {
    return this.serve(caller, true, async (ticket) => {
      // An unknown parameter (a query name, a get_opportunity argument) spends the request id and
      // counts against the rate limit, as on a list. A tool's arguments are checked before its
      // `id`, itself an argument, as every tool checks its argument names first (a wrong name,
      // `opportunity_id`, is the answer the agent needs); the URL's query after the path's id.
      if (options?.from === 'tool') checkOnlyParams(options.args, DETAIL_PARAMETERS);
      // A key pasted as the id (a path segment, a tool's argument) is an id that is not a uuid, 422
      // like any (contract §5.5); the message never quotes the id, so it is not shown back.
      if (typeof id !== 'string' || !isUuid(id)) {
        // Only a tool's call can leave it out.
        throw badOpportunityId(id);
      }
      if (options?.from === 'rest') checkOnlyParams(options.query, DETAIL_PARAMETERS);
      const { fields } = options ? this.parse('list', options, caller).options : {};
      unlessGone(caller.gone);
      const found = await this.meter.deliverRecord(
        subject(caller),
        ticket,
        id.toLowerCase(),
        (canonical) =>
          this.records.find(canonical).catch((err: unknown) => {
            throw storeError(err);
          }),
      );
      if (!found)
        throw new ApiError('opportunity_not_found', `No canonical opportunity has id ${id}.`);
      const { record } = found;
      const outcome = this.delivered(caller, found.delivery);
      return {
        body: {
          data: sparseRecord(record, projection(fields)),
          meta: { request_id: caller.requestId },
        },
        usage: usageHeaders(outcome.usage, outcome, {
          marketplaceVerified: caller.marketplaceVerified,
        }),
      };
    });
  }

  /**
   * contract §5.7: GET /v1/usage and get_usage. Free and spends no request id, but counts against
   * the rate limit; the body repeats the headers of the same response.
   */
  async accountUsage(
    caller: Caller,
    query: Readonly<Record<string, unknown>> = {},
  ): Promise<Outcome<UsageEnvelope>> {
    const served = await this.serve<UsageSnapshot>(caller, false, async () => {
      // No parameters (contract §5.7): a name in the query is an unknown one, after the rate limit.
      checkOnlyParams(query, []);
      // Always the ledger itself, never the cache: this is the answer to "how much is left".
      const snapshot = await this.meter.snapshot(usageSubject(caller));
      this.usage.remember(usageSubject(caller), snapshot);
      const usage = usageHeaders(snapshot, null, {
        marketplaceVerified: caller.marketplaceVerified,
      });
      return { body: snapshot, usage };
    });
    if (!served.ok) return served;
    return {
      ok: true,
      body: usageEnvelope(served.headers, served.body, caller.requestId),
      headers: served.headers,
    };
  }

  /**
   * Common admission and header handling (contract §18.2, §19.1, §19.3). The rate limit comes first and costs no
   * Postgres work: a 429 spends no request id and takes its usage headers from the usage cache, so
   * a flood of refused calls costs the database nothing. A call that passes spends its request id
   * (billable calls) whatever happens next: its delivery spends it in its own first round trip
   * (Meter.deliver), and a call that fails before that spends it here (spendOnFailure). On an
   * error the account's current usage still goes out.
   */
  private async serve<T>(
    caller: Caller,
    billable: boolean,
    work: (ticket: RequestTicket, window: RateDecision) => Promise<Work<T>>,
  ): Promise<Outcome<T>> {
    const headers: Record<string, string> = {};
    const ticket = billable
      ? new RequestTicket(caller.requestId)
      : RequestTicket.spentAlready(caller.requestId);
    let admitted = false;
    try {
      const limits = caller.auth.limits;
      const decision = await this.limits.check({
        ...subject(caller),
        accountRps: limits.rps,
        keyRps: caller.auth.key.rps,
      });
      Object.assign(headers, rateLimitHeaders(decision));
      admitted = true;
      const { usage, ...result } = await work(ticket, decision);
      return { ok: true, ...result, headers: { ...headers, ...usage } };
    } catch (thrown) {
      const err = admitted ? await this.spendOnFailure(caller, ticket, thrown) : thrown;
      if (!(err instanceof ApiError)) throw err;
      Object.assign(headers, err.headers);
      if (err instanceof RateLimitExceeded) {
        Object.assign(headers, rateLimitHeaders(err.decision));
        Object.assign(headers, await this.cachedUsageHeaders(caller, 'latest').catch(() => ({})));
      } else if (err.code !== 'metering_unavailable') {
        Object.assign(headers, await this.snapshotHeaders(caller).catch(() => ({})), err.headers);
      } else {
        // The ledger is what failed: asking it again would only double the wait. The last figures
        // this process saw, when it saw some, still name the account (contract §18.2).
        const known = this.usage.known(usageSubject(caller));
        if (known) {
          const shown = usageHeaders(known, null, {
            marketplaceVerified: caller.marketplaceVerified,
          });
          Object.assign(headers, shown, err.headers);
        }
      }
      return { ok: false, error: err, headers };
    }
  }

  /**
   * contract §17.2: an admitted billable call spends its id whatever its outcome. One that failed
   * before its delivery spent it does so now, and a reused id is then the error the caller sees,
   * as it would have been had the id been spent first. A store that is unavailable (or cannot take
   * the id now) leaves the first error: asking it again would only double the wait.
   */
  private async spendOnFailure(
    caller: Caller,
    ticket: RequestTicket,
    err: unknown,
  ): Promise<unknown> {
    const settled =
      err instanceof ApiError &&
      (err.code === 'duplicate_request_id' ||
        err.code === 'metering_unavailable' ||
        err.keepsRequestId);
    if (ticket.spent || settled) return err;
    try {
      await this.meter.spendRequestId(subject(caller), ticket);
    } catch (spendErr) {
      if (spendErr instanceof ApiError && spendErr.code === 'duplicate_request_id') return spendErr;
    }
    return err;
  }

  /**
   * Admission of an MCP POST (contract §21.10). A `counted` message (tools/list, resources/*,
   * server/discover, the taxonomy tool...) is held to the account's read rate limit like any call;
   * the handshake and notifications only to the looser protocol limit, showing the read window
   * without counting against it. Neither needs Postgres: usage headers come from the usage cache.
   * A tool call that reads is limited by serve() and sets its own headers over these.
   */
  async admitProtocolMessage(caller: Caller, counted = false): Promise<Outcome<undefined>> {
    const rate = {
      ...subject(caller),
      accountRps: caller.auth.limits.rps,
      keyRps: caller.auth.key.rps,
    };
    let window: RateDecision;
    try {
      window = counted ? await this.limits.check(rate) : await this.limits.protocolCheck(rate);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const usage = await this.cachedUsageHeaders(caller, 'latest').catch(() => ({}));
      const rateHeaders = err instanceof RateLimitExceeded ? rateLimitHeaders(err.decision) : {};
      return { ok: false, error: err, headers: { ...err.headers, ...rateHeaders, ...usage } };
    }
    const [shown, usage] = await Promise.all([
      counted ? window : this.limits.peek(rate),
      this.cachedUsageHeaders(caller, 'fresh').catch(() => ({})),
    ]);
    return { ok: true, body: undefined, headers: { ...rateLimitHeaders(shown), ...usage } };
  }

  /**
   * The answer to an error that names an account before a Caller exists (a 403 from
   * authentication, a malformed X-Request-ID beside a good key): every authenticated response that
   * names an account carries its usage headers (contract §18.2), and one whose key is known counts
   * against the rate limit like any authenticated request (contract §19.1): it carries the window,
   * or becomes the 429 when it is over.
   */
  async accountRefusal(
    err: ApiError,
    marketplaceVerified = false,
  ): Promise<{ error: ApiError; headers: Record<string, string> }> {
    const who = err.authenticated;
    if (!who) return { error: err, headers: {} };
    // A key of its own allowance sees its own figures here too (contract §15.4), as on the
    // responses of its admitted calls: the account's were shown, from an entry its deliveries
    // never refreshed.
    const subject: UsageSubject = who.ownAllowance
      ? { accountId: who.accountId, keyId: who.keyId }
      : { accountId: who.accountId };
    let error = err;
    let rate: Record<string, string>;
    try {
      rate = rateLimitHeaders(await this.limits.check(who));
    } catch (limited) {
      if (!(limited instanceof RateLimitExceeded)) throw limited;
      error = limited;
      rate = { ...limited.headers, ...rateLimitHeaders(limited.decision) };
    }
    // A refused account is answered from the usage cache, at most a second old: a flood of 403s
    // costs one query a second, and an admin change shows as it does on every other answer.
    const snapshot = await this.usage
      .fresh(subject, () => this.meter.snapshot(subject))
      .catch(() => null);
    const usage = snapshot ? usageHeaders(snapshot, null, { marketplaceVerified }) : {};
    return { error, headers: { ...rate, ...usage } };
  }

  private parse(endpoint: Endpoint, input: FilterInput, caller: Caller): ParsedRequest {
    const ctx = {
      taxonomy: this.deps.taxonomy,
      maxPageSize: caller.auth.limits.pageSize,
    };
    return input.from === 'rest'
      ? parseRestQuery(endpoint, input.query, ctx)
      : parseToolArgs(endpoint, input.args, ctx);
  }

  /** Fresh from the ledger (counts, errors of admitted calls); refreshes the usage cache. */
  private async snapshotHeaders(caller: Caller): Promise<Record<string, string>> {
    const snapshot = await this.meter.snapshot(usageSubject(caller));
    this.usage.remember(usageSubject(caller), snapshot);
    return usageHeaders(snapshot, null, { marketplaceVerified: caller.marketplaceVerified });
  }

  /** For responses that must cost no Postgres work (429s, protocol messages): see UsageCache. */
  private async cachedUsageHeaders(
    caller: Caller,
    age: 'latest' | 'fresh',
  ): Promise<Record<string, string>> {
    const snapshot = await this.usage[age](usageSubject(caller), () =>
      this.meter.snapshot(usageSubject(caller)),
    );
    return usageHeaders(snapshot, null, { marketplaceVerified: caller.marketplaceVerified });
  }

  /** A delivery's usage, read in its transaction, is the freshest there is. */
  private delivered<T extends DeliveryOutcome>(caller: Caller, outcome: T): T {
    this.usage.remember(usageSubject(caller), outcome.usage);
    return outcome;
  }
}

const subject = (caller: Caller): BillingSubject => ({
  accountId: caller.auth.account.id,
  keyId: caller.auth.key.id,
});

/**
 * Whose usage figures a caller's headers show (contract §15.4, §18.4): a key of its own allowance
 * sees its own (read with the key, cached apart); every other key shares its account's figures,
 * its cache entry and the plain read of the account.
 */
const usageSubject = (caller: Caller): UsageSubject =>
  caller.auth.key.allowance === null ? { accountId: caller.auth.account.id } : subject(caller);

/**
 * A failure of the store behind a read: its outage is 503 metering_unavailable (the one builder,
 * billing/pg-errors.ts); anything else (a SQL error is a bug) goes on as it is, to become a 500
 * that is seen rather than retried.
 */
function storeError(err: unknown): unknown {
  if (err instanceof ApiError || !isStoreUnavailable(err)) return err;
  return meteringUnavailable(err);
}
