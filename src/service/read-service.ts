import type { BillingSubject, DeliveryOutcome, Meter } from '../billing/meter';
import { UsageCache } from '../billing/usage-cache';
import { RateLimitExceeded, rateLimitHeaders, type RateLimits } from '../billing/rate-limit';
import { usageHeaders } from '../billing/headers';
import { ApiError, validationError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import {
  parseRestQuery,
  parseToolArgs,
  type Endpoint,
  type ParsedRequest,
} from '../domain/filters';
import { findOpportunity } from '../store/opportunity-repo';
import type { AuthContext } from './auth';
import type { AppDeps } from './context';
import {
  listEnvelope,
  type CountEnvelope,
  type DetailEnvelope,
  type ListEnvelope,
} from './envelopes';
import { countMatching, searchPage } from './opportunity-search';
import { accountLimits } from '../store/account-repo';
import { metrics } from '../infra/metrics';
import type { ChangesEnvelope } from '../domain/changes-envelope';
import { changeFeedPage, parseChangesQuery } from './change-feed';

/** Who is asking, as the REST and MCP adapters both establish it. */
export interface Caller {
  auth: AuthContext;
  requestId: string;
  marketplaceVerified: boolean;
}

/** Filters as they arrive: a REST query string or MCP tool arguments. */
export type FilterInput =
  | { from: 'rest'; query: Record<string, unknown> }
  | { from: 'tool'; args: Record<string, unknown> };

export interface Served<T> {
  body: T;
  /** Rate limit and usage headers of contract 8.3. */
  headers: Record<string, string>;
}

/**
 * The authenticated read surface that REST and MCP both call, so they share data, quota, rate
 * limits and ledger. Every outcome, success or ApiError, carries the headers of contract 8.3.
 */
export class ReadService {
  constructor(
    private readonly deps: AppDeps,
    private readonly meter: Meter,
    private readonly limits: RateLimits,
    private readonly usage = new UsageCache(),
  ) {}

  list(caller: Caller, input: FilterInput): Promise<Served<ListEnvelope>> {
    return this.serve(caller, true, async () => {
      const request = this.parse('list', input, caller);
      const page = await searchPage(this.deps, request, caller.auth.account.id);
      const outcome = this.delivered(
        caller,
        await this.meter.deliver(
          subject(caller),
          caller.requestId,
          page.records.map((r) => r.id),
        ),
      );
      return {
        body: listEnvelope(
          page.records,
          page.nextCursor,
          request.limit,
          caller.requestId,
          request.appliedFilters,
        ),
        usage: usageHeaders(outcome.usage, outcome, {
          marketplaceVerified: caller.marketplaceVerified,
        }),
      };
    });
  }

  count(caller: Caller, input: FilterInput): Promise<Served<CountEnvelope>> {
    return this.serve(caller, false, async () => {
      const request = this.parse('count', input, caller);
      const count = await countMatching(this.deps, request.filter);
      return {
        body: {
          count,
          meta: { request_id: caller.requestId, applied_filters: request.appliedFilters },
        },
        usage: await this.snapshotHeaders(caller),
      };
    });
  }

  /** The change feed (decisions 11): metered like list, tombstones free. REST only. */
  changes(caller: Caller, query: Record<string, unknown>): Promise<Served<ChangesEnvelope>> {
    return this.serve(caller, true, async () => {
      const request = parseChangesQuery(
        query,
        accountLimits(caller.auth.account).pageSize,
        this.deps,
      );
      const page = await changeFeedPage(
        this.deps,
        request,
        caller.auth.account.id,
        caller.requestId,
      ).catch((err: unknown) => {
        throw storeError(err);
      });
      const outcome = this.delivered(
        caller,
        await this.meter.deliver(subject(caller), caller.requestId, page.recordIds),
      );
      return {
        body: page.body,
        usage: usageHeaders(outcome.usage, outcome, {
          marketplaceVerified: caller.marketplaceVerified,
        }),
      };
    });
  }

  detail(caller: Caller, id: unknown): Promise<Served<DetailEnvelope>> {
    return this.serve(caller, true, async () => {
      if (typeof id !== 'string' || !isUuid(id)) {
        throw validationError('opportunity_id', 'bad_format', 'opportunity_id must be a uuid.');
      }
      const record = await findOpportunity(this.deps.pool, id.toLowerCase()).catch(
        (err: unknown) => {
          throw storeError(err);
        },
      );
      if (!record)
        throw new ApiError('opportunity_not_found', `No canonical opportunity has id ${id}.`);
      const outcome = this.delivered(
        caller,
        await this.meter.deliver(subject(caller), caller.requestId, [record.id]),
      );
      return {
        body: { data: record, meta: { request_id: caller.requestId } },
        usage: usageHeaders(outcome.usage, outcome, {
          marketplaceVerified: caller.marketplaceVerified,
        }),
      };
    });
  }

  /**
   * Common admission and header handling (decisions 7, 8). The rate limit comes first and costs no
   * Postgres work: a 429 spends no request id and takes its usage headers from the usage cache, so
   * a flood of refused calls costs the database nothing. A call that passes spends its request id
   * (billable calls) whatever happens next. On an error the account's current usage still goes out.
   */
  private async serve<T>(
    caller: Caller,
    billable: boolean,
    work: () => Promise<{ body: T; usage: Record<string, string> }>,
  ): Promise<Served<T>> {
    const headers: Record<string, string> = {};
    try {
      const limits = accountLimits(caller.auth.account);
      const decision = await this.limits.check({
        ...subject(caller),
        accountRps: limits.rps,
        keyRps: caller.auth.key.rps,
      });
      Object.assign(headers, rateLimitHeaders(decision));
      if (billable) await this.meter.spendRequestId(subject(caller), caller.requestId);
      const { body, usage } = await work();
      return { body, headers: { ...headers, ...usage } };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Counted here too, for MCP tool errors that never reach the HTTP error handler.
      metrics.apiError(err);
      Object.assign(headers, err.headers);
      if (err instanceof RateLimitExceeded) {
        Object.assign(headers, rateLimitHeaders(err.decision));
        Object.assign(headers, await this.cachedUsageHeaders(caller, 'latest').catch(() => ({})));
      } else if (err.code !== 'metering_unavailable') {
        Object.assign(headers, await this.snapshotHeaders(caller).catch(() => ({})), err.headers);
      }
      err.headers = headers;
      throw err;
    }
  }

  /**
   * Admission of an MCP POST (decisions 8, 9): protocol messages (initialize, tools/list) are
   * limited loosely per account and answered without Postgres; they show the account's read window
   * without counting against it, and the usage headers from the usage cache. A tool call that reads
   * sets its own headers over these.
   */
  async admitProtocolMessage(caller: Caller): Promise<Record<string, string>> {
    const rate = {
      ...subject(caller),
      accountRps: accountLimits(caller.auth.account).rps,
      keyRps: caller.auth.key.rps,
    };
    try {
      await this.limits.protocolCheck(rate);
    } catch (err) {
      if (err instanceof ApiError) {
        Object.assign(
          err.headers,
          await this.cachedUsageHeaders(caller, 'latest').catch(() => ({})),
        );
      }
      throw err;
    }
    const [window, usage] = await Promise.all([
      this.limits.peek(rate),
      this.cachedUsageHeaders(caller, 'fresh').catch(() => ({})),
    ]);
    return { ...rateLimitHeaders(window), ...usage };
  }

  /**
   * Usage headers for an error that names an account before a Caller exists (a 403 from
   * authentication): every authenticated response that names an account carries them (decisions 7).
   */
  async addAccountHeaders(err: ApiError): Promise<void> {
    if (!err.accountId) return;
    const accountId = err.accountId;
    // A refused account is answered from the usage cache: a flood of 403s costs no query either.
    const snapshot = await this.usage
      .latest(accountId, () => this.meter.snapshot({ accountId }))
      .catch(() => null);
    if (snapshot)
      Object.assign(err.headers, usageHeaders(snapshot, null, { marketplaceVerified: false }));
  }

  private parse(endpoint: Endpoint, input: FilterInput, caller: Caller): ParsedRequest {
    const ctx = {
      taxonomy: this.deps.taxonomy,
      maxPageSize: accountLimits(caller.auth.account).pageSize,
    };
    return input.from === 'rest'
      ? parseRestQuery(endpoint, input.query, ctx)
      : parseToolArgs(endpoint, input.args, ctx);
  }

  /** Fresh from the ledger (counts, errors of admitted calls); refreshes the usage cache. */
  private async snapshotHeaders(caller: Caller): Promise<Record<string, string>> {
    const snapshot = await this.meter.snapshot(subject(caller));
    this.usage.remember(caller.auth.account.id, snapshot);
    return usageHeaders(snapshot, null, { marketplaceVerified: caller.marketplaceVerified });
  }

  /** For responses that must cost no Postgres work (429s, protocol messages): see UsageCache. */
  private async cachedUsageHeaders(
    caller: Caller,
    age: 'latest' | 'fresh',
  ): Promise<Record<string, string>> {
    const snapshot = await this.usage[age](caller.auth.account.id, () =>
      this.meter.snapshot(subject(caller)),
    );
    return usageHeaders(snapshot, null, { marketplaceVerified: caller.marketplaceVerified });
  }

  /** A delivery's usage, read in its transaction, is the freshest there is. */
  private delivered(caller: Caller, outcome: DeliveryOutcome): DeliveryOutcome {
    this.usage.remember(caller.auth.account.id, outcome.usage);
    return outcome;
  }
}

const subject = (caller: Caller): BillingSubject => ({
  accountId: caller.auth.account.id,
  keyId: caller.auth.key.id,
});

function storeError(err: unknown): ApiError {
  return err instanceof ApiError
    ? err
    : new ApiError(
        'metering_unavailable',
        'The opportunity store is unavailable; retry later.',
        undefined,
        5,
      );
}
