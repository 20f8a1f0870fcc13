import type { RequestHandler, Router } from 'express';
import type { ErrorCode } from '../domain/errors';
import { ChangesQuery } from '../domain/changes-envelope';
import { ACCEPTABLE_USE } from './openapi-intro';
import {
  AUTH_ERRORS,
  AUTH_HEADERS,
  ETAG_HEADER,
  errorResponse,
  errors,
  fieldsParameter,
  ifNoneMatchHeader,
  publicIfNoneMatchHeader,
  notModified,
  ok,
  queryParameters,
  requestIdHeader,
  correlationIdHeader,
  ECHOED_HEADERS,
  str,
} from './openapi-parts';

// The HTTP surface, declared once (as unkey's createRoute does): each documented operation's method,
// path, parameters (generated from the filter catalog's zod schemas), responses (named components
// of the zod envelopes) and texts. The express routers mount their handlers on these declarations
// (mountOperation) and http/openapi.ts writes every path of /v1/openapi.json from them, so a route
// and its documentation cannot drift apart. Routes that are no operation of the document (/healthz,
// /readyz, /metrics, /docs, /llms.txt, /mcp) are mounted by their routers directly.

/** The groups of /docs, in the order a newcomer needs them; every operation has one. */
export const TAGS = {
  Opportunities: 'Search, count, read and follow opportunities (key).',
  Taxonomy: 'The occupational taxonomy: the ids of the job_* filters.',
  Account: "The account's plan, allowance, balance and rate limit.",
  Preview: 'Anonymous preview: a few live opportunities, no key.',
  Discovery: 'This document (also /docs, /llms.txt and /mcp).',
} as const;

export interface Operation {
  method: 'get';
  /** OpenAPI path syntax: `{name}` for a path parameter. */
  path: `/v1/${string}`;
  tags: [keyof typeof TAGS];
  summary: string;
  description?: string;
  /** No API key (the document's `security: []`); otherwise the key is required. */
  public?: true;
  /**
   * Generated from the zod schemas when the document is written, not when the routers mount the
   * operation: an app that never serves /v1/openapi.json never pays for them.
   */
  parameters?: () => readonly object[];
  /** By status; the error responses name their codes from domain/errors.ts. */
  responses: Record<string, object>;
}

/** The preview's own 429 (contract §9.6): per client address, no key, no usage headers. */
const PREVIEW_RATE_LIMITED: readonly ErrorCode[] = ['preview_rate_limit_exceeded'];

/** Keyed by operationId, in the document's order. */
/** A 400 of an operation without cursor or page size: only a parameter's. */
const ONLY_FILTERS = { '400': ['invalid_filter'] } as const;

export const OPERATIONS = {
  listOpportunities: {
    method: 'get',
    path: '/v1/opportunities',
    tags: ['Opportunities'],
    summary: 'A page of canonical opportunities (keyset pagination, signed cursor).',
    description:
      'Newest first. Each opportunity delivered to the account for the first time in the period consumes one unit of allowance (then prepaid credit); repeats are free. unseen_only=true returns only records not yet delivered this period (each one new, so each consumed); max_new=N caps the new records of one page without skipping any (the page stops before the (N+1)-th new one, next_cursor continues right after it). The cheap path for an agent: count with include=new_count (free) to see how many are new and what they would cost, then list with unseen_only=true and max_new. Send a held ETag in If-None-Match: 304 (nothing consumed, no request id spent) when the page is unchanged and every record on it was already delivered.',
    parameters: () => [...queryParameters('list'), requestIdHeader, ifNoneMatchHeader],
    responses: {
      '200': ok('ListEnvelope', { ...AUTH_HEADERS, ETag: ETAG_HEADER }),
      '304': notModified(
        'every record on the page was already delivered this period (nothing consumed, no request id spent)',
      ),
      ...errors(AUTH_ERRORS, AUTH_HEADERS),
    },
  },
  countOpportunities: {
    method: 'get',
    path: '/v1/opportunities/count',
    tags: ['Opportunities'],
    summary: 'The number of matching opportunities; consumes no allowance.',
    description:
      'Free, facets and new_count included. group_by (one or two dimensions) and group_limit add groups and other_count at each level, exact: a bucket counts what the same filters plus that value count. include=new_count adds new_count (matching records not yet delivered to this account this period) and new_cost_millicents (what listing them all would take from the prepaid wallet after the remaining included allowance), exact whatever the number of deliveries. Dashboards: histogram=published|first_seen with interval=day|week|month adds histogram (HistogramBucket: matching records per UTC bucket, weeks from Monday, ascending, empty buckets included, at most 400); stats=rate adds rate_stats (RateStatistics per rate unit and currency: count, min and max exact, p25, median and p75 within 5 %). Both combine with every filter, with each other and with group_by, and are free. If-None-Match with the ETag of an earlier answer: 304 when the count envelope is unchanged.',
    parameters: () => [...queryParameters('count'), correlationIdHeader, ifNoneMatchHeader],
    responses: {
      '200': ok('CountEnvelope', { ...AUTH_HEADERS, ETag: ETAG_HEADER }),
      '304': notModified('the count is unchanged'),
      // No cursor and no page: a count's 400 is a filter's.
      ...errors(['400', '401', '403', '422', '429', '500', '503'], AUTH_HEADERS, ONLY_FILTERS),
    },
  },
  listOpportunityChanges: {
    method: 'get',
    path: '/v1/opportunities/changes',
    tags: ['Opportunities'],
    summary:
      'Change feed to keep an integration current: changes in indexing order, each record once at its latest state, tombstones for removed records, a cursor to poll from. Metered like list (new records consume, repeats and tombstones are free).',
    description:
      `${ACCEPTABLE_USE} The feed keeps an integration current; it is not a way to rebuild or republish the dataset.\n\n` +
      'since=ISO (or YYYY-MM-DD): the first call returns the changes whose changed_at is at or after it (a tombstone is timed by its deletion), and from its cursor on every later change comes, whatever its changed_at; neither since nor cursor: the whole store from the start. pagination.next_cursor is never null: keep it and poll from it later (it carries since and is bound to the account); has_more says whether more changes exist now. A record removed from the store (admin CLI `delete ID`, or an import line {"id": "...", "deleted": true}) appears once as a tombstone { id, deleted: true, changed_at }. Records are metered like list (new ones consume, repeats are free, the call spends its request id); tombstones are free. Not exposed over MCP.',
    parameters: () => [...queryParameters(ChangesQuery), ...fieldsParameter(), requestIdHeader],
    responses: {
      '200': ok('ChangesEnvelope', AUTH_HEADERS),
      ...errors(AUTH_ERRORS, AUTH_HEADERS),
    },
  },
  getOpportunity: {
    method: 'get',
    path: '/v1/opportunities/{opportunity_id}',
    tags: ['Opportunities'],
    summary: 'One canonical opportunity, whatever its liveness.',
    parameters: () => [
      {
        name: 'opportunity_id',
        in: 'path',
        required: true,
        schema: { type: 'string', format: 'uuid' },
      },
      ...fieldsParameter(),
      requestIdHeader,
    ],
    responses: {
      '200': ok('DetailEnvelope', AUTH_HEADERS),
      // No cursor and no page size: a detail's 400 is a parameter's (fields, an unknown one).
      ...errors([...AUTH_ERRORS, '404'], AUTH_HEADERS, ONLY_FILTERS),
    },
  },
  getUsage: {
    method: 'get',
    path: '/v1/usage',
    tags: ['Account'],
    summary:
      "The account's usage: the usage headers in one body. Free; spends no request id; counts against the rate limit.",
    parameters: () => [correlationIdHeader],
    responses: {
      '200': ok('Usage', AUTH_HEADERS),
      // Usage reads the ledger only: never the search engine.
      ...errors(['400', '401', '403', '422', '429', '500', '503'], AUTH_HEADERS, {
        ...ONLY_FILTERS,
        '503': ['metering_unavailable'],
      }),
    },
  },
  getOccupationTaxonomy: {
    method: 'get',
    path: '/v1/taxonomy/occupations',
    tags: ['Taxonomy'],
    summary: 'The versioned occupational taxonomy; no key needed; cacheable (ETag).',
    public: true,
    parameters: () => [correlationIdHeader, publicIfNoneMatchHeader],
    responses: {
      '200': ok('Taxonomy', { ...ECHOED_HEADERS, ETag: str, 'Cache-Control': str }),
      '304': {
        description: 'Not modified (If-None-Match matched the ETag).',
        headers: { ...ECHOED_HEADERS, ETag: str, 'Cache-Control': str },
      },
      // A malformed X-Request-ID is refused before any route (contract §17.1); any query
      // parameter is an unknown one (400).
      ...errors(['400', '422', '500'], ECHOED_HEADERS, ONLY_FILTERS),
    },
  },
  previewOpportunities: {
    method: 'get',
    path: '/v1/preview/opportunities',
    tags: ['Preview'],
    summary: 'Anonymous preview: at most five live opportunities, no pagination.',
    public: true,
    parameters: () => [...queryParameters('preview'), correlationIdHeader],
    responses: {
      '200': ok('PreviewListEnvelope', ECHOED_HEADERS),
      // A cursor is refused as an unsupported filter (no pagination), and nothing is metered.
      ...errors(['400', '422', '500', '503'], ECHOED_HEADERS, {
        '400': ['invalid_filter', 'page_size_exceeded'],
        '503': ['search_unavailable'],
      }),
      '429': errorResponse('429', ECHOED_HEADERS, PREVIEW_RATE_LIMITED),
    },
  },
  getOpenApiDocument: {
    method: 'get',
    path: '/v1/openapi.json',
    tags: ['Discovery'],
    summary: 'This document.',
    public: true,
    parameters: () => [correlationIdHeader],
    responses: {
      '200': {
        description: 'OpenAPI 3.1 document',
        headers: ECHOED_HEADERS,
        content: { 'application/json': {} },
      },
      // Any query parameter is an unknown one (400).
      ...errors(['400', '422', '500'], ECHOED_HEADERS, ONLY_FILTERS),
    },
  },
} satisfies Record<string, Operation>;

export type OperationId = keyof typeof OPERATIONS;

/** An OpenAPI path as express writes it: `{opportunity_id}` → `:opportunity_id`. */
export function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z_]+)\}/g, ':$1');
}

/** Mounts an operation's handlers on its declared method and path (the only way routers add one). */
export function mountOperation(
  router: Router,
  id: OperationId,
  ...handlers: RequestHandler[]
): void {
  const { method, path } = OPERATIONS[id];
  router[method](expressPath(path), ...handlers);
}
