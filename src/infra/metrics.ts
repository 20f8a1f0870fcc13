import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ApiError } from '../domain/errors';

// Operator metrics, exposed by GET /metrics in the Prometheus text format. One registry
// per process, like the process itself: every app, limiter and meter in it reports here. Labels
// are closed sets (route patterns, never raw paths; codes, never messages) so that series stay few.

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export type Upstream = 'opensearch' | 'postgres' | 'redis';

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to response finished, by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const deliveries = new Counter({
  name: 'opportunity_deliveries_total',
  help: 'Opportunities delivered for the first time in their period, by how they were paid.',
  labelNames: ['paid_by'] as const,
  registers: [registry],
});

const charges = new Counter({
  name: 'wallet_charges_millicents_total',
  help: 'Millicents charged to wallets for new deliveries.',
  registers: [registry],
});

const upstreamErrors = new Counter({
  name: 'upstream_errors_total',
  help: 'Failed calls to an upstream, by upstream and kind (timeout or error).',
  labelNames: ['upstream', 'kind'] as const,
  registers: [registry],
});

const apiErrors = new Counter({
  name: 'api_errors_total',
  help: 'Error answers by code (REST envelopes and MCP tool errors alike).',
  labelNames: ['code'] as const,
  registers: [registry],
});

const rateLimitRefusals = new Counter({
  name: 'rate_limit_refusals_total',
  help: 'Requests refused by a rate limit, by error code.',
  labelNames: ['code'] as const,
  registers: [registry],
});

const limiterFallback = new Gauge({
  name: 'rate_limiter_fallback_active',
  help: '1 while rate limits are kept in process: the last call to the configured Redis failed or timed out.',
  registers: [registry],
});

const limiterFallbackDecisions = new Counter({
  name: 'rate_limiter_fallback_decisions_total',
  help: 'Rate-limit decisions taken in process because the configured Redis failed or timed out.',
  registers: [registry],
});

const recordTexts = new Counter({
  name: 'record_texts_total',
  help: "List pages' records by where their text came from: memory (kept, by digest) or engine.",
  labelNames: ['source'] as const,
  registers: [registry],
});

const recordTextsHeld = new Gauge({
  name: 'record_texts_held_characters',
  help: 'Characters of record text kept in memory for list pages (bounded by RECORD_CACHE_MB).',
  registers: [registry],
});

const sparseRecords = new Counter({
  name: 'sparse_records_total',
  help: "List pages' records shaped by `fields`: kept from an earlier request (by digest and fields), or made.",
  labelNames: ['source'] as const,
  registers: [registry],
});

const sparseRecordsHeld = new Gauge({
  name: 'sparse_records_held_characters',
  help: 'Characters of JSON of the sparse records kept for `fields` (bounded: service/shaped-records.ts).',
  registers: [registry],
});

const pagesReadAhead = new Counter({
  name: 'list_pages_read_ahead_total',
  help: 'Pages after a cursor read ahead of their requests: kept by a search, or served from memory.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Where an ApiError came from, when an upstream failed (contract §20.3). */
const UPSTREAM_OF: Partial<Record<ApiError['code'], Upstream>> = {
  search_unavailable: 'opensearch',
  metering_unavailable: 'postgres',
};

export const metrics = {
  request(method: string, route: string, status: number, seconds: number): void {
    httpRequests.inc({ method, route, status: String(status) });
    httpDuration.observe({ method, route }, seconds);
  },

  delivered(outcome: {
    includedNewCount: number;
    paygNewCount: number;
    chargeMillicents: number;
  }): void {
    if (outcome.includedNewCount > 0)
      deliveries.inc({ paid_by: 'included' }, outcome.includedNewCount);
    if (outcome.paygNewCount > 0) deliveries.inc({ paid_by: 'wallet' }, outcome.paygNewCount);
    if (outcome.chargeMillicents > 0) charges.inc(outcome.chargeMillicents);
  },

  /**
   * Counts an error answer, with its upstream failure and rate-limit refusal if any (the presenter
   * calls this once per answer written, adapter/presenter.ts).
   */
  apiError(err: ApiError): void {
    apiErrors.inc({ code: err.code });
    if (err.status === 429) rateLimitRefusals.inc({ code: err.code });
    const upstream = UPSTREAM_OF[err.code];
    if (upstream) metrics.upstreamError(upstream, err.cause);
  },

  upstreamError(upstream: Upstream, cause: unknown): void {
    upstreamErrors.inc({ upstream, kind: isTimeout(cause) ? 'timeout' : 'error' });
  },

  /** A list page read from the engine: its records' texts from memory and from the engine. */
  recordTexts(fromMemory: number, fromEngine: number, heldCharacters: number): void {
    if (fromMemory > 0) recordTexts.inc({ source: 'memory' }, fromMemory);
    if (fromEngine > 0) recordTexts.inc({ source: 'engine' }, fromEngine);
    recordTextsHeld.set(heldCharacters);
  },

  /** A page's records shaped by `fields` (service/shaped-records.ts): kept, or made now. */
  sparseRecords(kept: number, made: number, heldCharacters: number): void {
    if (kept > 0) sparseRecords.inc({ source: 'kept' }, kept);
    if (made > 0) sparseRecords.inc({ source: 'made' }, made);
    sparseRecordsHeld.set(heldCharacters);
  },

  /** Pages read ahead of a cursor walk (OpenSearchIndex.readAhead): kept by a search, or served. */
  pagesReadAhead(outcome: 'kept' | 'served', pages = 1): void {
    if (pages > 0) pagesReadAhead.inc({ outcome }, pages);
  },

  /** Called on each rate-limit call when Redis is configured: did Redis answer it? */
  limiterBackend(redisAnswered: boolean): void {
    limiterFallback.set(redisAnswered ? 0 : 1);
    if (!redisAnswered) limiterFallbackDecisions.inc();
  },
};

function isTimeout(cause: unknown): boolean {
  if (typeof cause !== 'object' || cause === null) return false;
  const { name, code, message } = cause as { name?: unknown; code?: unknown; message?: unknown };
  return (
    name === 'TimeoutError' ||
    code === 'ETIMEDOUT' ||
    code === '57014' || // query_canceled: statement_timeout
    code === '55P03' || // lock_timeout
    (typeof message === 'string' && /time(d)? ?out/i.test(message))
  );
}
