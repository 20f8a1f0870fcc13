import { z } from 'zod';
import {
  CountEnvelope,
  HistogramBucket,
  RateStatistics,
  DetailEnvelope,
  ErrorEnvelope,
  ListEnvelope,
  PreviewListEnvelope,
  TaxonomyEnvelope,
  TaxonomyNodeSchema,
} from '../domain/envelopes';
import { ChangesEnvelope, ChangesQuery, Tombstone } from '../domain/changes-envelope';
import { UsageEnvelope } from '../domain/usage-envelope';
import { restQuerySchema, type Endpoint } from '../domain/filters';
import { Opportunity, PreviewOpportunity, SparseOpportunity } from '../domain/record';
import { ACCEPTABLE_USE, OPENAPI_INTRO } from './openapi-intro';
import { componentRef, componentSchemas } from './openapi-schemas';

// OpenAPI 3.1 (contract 9), generated from the same zod schemas that validate requests and type
// responses. Served at GET /v1/openapi.json.

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
  });
  return rest;
};

const ref = componentRef;
const int = { schema: { type: 'integer' } };
const str = { schema: { type: 'string' } };

const USAGE_HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
  'X-Request-ID': { description: 'Caller-supplied or generated request id.', ...str },
  'X-RateLimit-Limit': { description: 'Effective request limit for the window.', ...int },
  'X-RateLimit-Remaining': { description: 'Requests left in the window.', ...int },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets.', ...int },
  'X-Service-Balance-Millicents': {
    description: 'Remaining prepaid wallet balance.',
    schema: { type: 'integer', format: 'int64' },
  },
  'X-Service-Usage-Charge-Millicents': {
    description: 'Prepaid amount charged for this response.',
    schema: { type: 'integer', format: 'int64' },
  },
  'X-Service-Prepaid-Opportunity-Credits': {
    description: 'Further opportunities affordable from the prepaid balance.',
    ...int,
  },
  'X-Service-Plan': { description: 'Current plan for plan-billed accounts.', ...str },
  'X-Service-Opportunity-Limit': { description: 'Allowance for the current period.', ...int },
  'X-Service-Opportunity-Used': {
    description: 'Unique opportunities delivered this period.',
    ...int,
  },
  'X-Service-Opportunity-Remaining': { description: 'Allowance remaining this period.', ...int },
  'X-Service-New-Opportunity-Count': {
    description: 'New period-scoped exposures in this response.',
    ...int,
  },
  'X-Service-Included-New-Opportunity-Count': {
    description: 'New ones charged to included allowance.',
    ...int,
  },
  'X-Service-PAYG-New-Opportunity-Count': {
    description: 'New ones charged to prepaid credit.',
    ...int,
  },
  'X-Service-Period-End': {
    description: 'Exclusive end of the current period.',
    schema: { type: 'string', format: 'date-time' },
  },
  'X-Marketplace-Billing': {
    description: 'Opportunities=N; only for a verified marketplace-proxy request.',
    ...str,
  },
};

const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const AUTH_HEADERS = headerRefs(Object.keys(USAGE_HEADERS));

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'invalid_filter, malformed_cursor or page_size_exceeded',
  '401': 'missing_api_key, invalid_api_key or revoked_api_key',
  '402': 'insufficient_balance or opportunity_quota_exhausted',
  '403': 'api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired',
  '404': 'opportunity_not_found',
  '409': 'duplicate_request_id',
  '422': 'validation_error',
  '429': 'rate_limit_exceeded (with Retry-After)',
  '500': 'internal_server_error',
  '503': 'metering_unavailable or search_unavailable (with Retry-After)',
};

const RETRY_AFTER = {
  description: 'Whole seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 1 },
};

function errors(statuses: string[], headers: Record<string, unknown>) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: ERROR_RESPONSES[s] ?? 'error',
        headers: s === '429' || s === '503' ? { ...headers, 'Retry-After': RETRY_AFTER } : headers,
        content: { 'application/json': { schema: ref('ErrorEnvelope') } },
      },
    ]),
  );
}

/**
 * The query parameters of an endpoint, from its typed zod schema (decisions 4: the catalog that
 * drives parsing). Every array is a comma list in this API (decisions 2): `style: form, explode:
 * false` tells clients to send `level=senior,staff`, never `level=senior&level=staff` (which the
 * service refuses as a repeated parameter).
 */
function queryParameters(endpoint: Endpoint | z.ZodType) {
  const schema = jsonSchema(typeof endpoint === 'string' ? restQuerySchema(endpoint) : endpoint);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, prop]) => {
    const { description, ...rest } = prop;
    const list = rest.type === 'array' ? { style: 'form', explode: false } : {};
    return { name, in: 'query', required: false, description, ...list, schema: rest };
  });
}

/** decisions 13: `fields` as list documents it, for the detail and the change feed too. */
const fieldsParameter = () => queryParameters('list').filter((p) => p.name === 'fields');

const requestIdHeader = {
  name: 'X-Request-ID',
  in: 'header',
  required: false,
  description: 'Unique caller-generated id of this billable request (1 to 128 of A-Za-z0-9._:-).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};

// decisions 11 "Free revalidation" on list and count.
const ETAG_HEADER = {
  description:
    'Weak entity tag of this response, blind to meta.request_id: send it back in If-None-Match.',
  ...str,
};
const ifNoneMatchHeader = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags from earlier ETag headers (a list, or *), compared weakly (RFC 9110). A match answers 304 with no body, the usage and rate-limit headers, and counts against the rate limit; on a list only when every record on the page was already delivered to the account this period, and then it consumes nothing and spends no request id.',
  schema: { type: 'string' },
};
const notModified = (what: string) => ({
  description: `Not modified: If-None-Match matched and ${what}. No body.`,
  headers: { ...AUTH_HEADERS, ETag: ETAG_HEADER },
});

const ok = (schema: string, headers: Record<string, unknown>) => ({
  description: 'OK',
  headers,
  content: { 'application/json': { schema: ref(schema) } },
});

const AUTH_ERRORS = ['400', '401', '402', '403', '409', '422', '429', '500', '503'];

export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Technology Contract Opportunity Read API',
      version: '1.0.0-beta.1',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: OPENAPI_INTRO,
    },
    // The groups of /docs (issue 23), in the order a newcomer needs them; every operation has one.
    tags: [
      { name: 'Opportunities', description: 'Search, count, read and follow opportunities (key).' },
      { name: 'Taxonomy', description: 'The occupational taxonomy: the ids of the job_* filters.' },
      { name: 'Account', description: "The account's plan, allowance, balance and rate limit." },
      { name: 'Preview', description: 'Anonymous preview: a few live opportunities, no key.' },
      { name: 'Discovery', description: 'This document (also /docs, /llms.txt and /mcp).' },
    ],
    servers: [{ url: '/' }],
    security: [{ ApiKeyHeader: [] }],
    paths: {
      '/v1/opportunities': {
        get: {
          operationId: 'listOpportunities',
          tags: ['Opportunities'],
          summary: 'A page of canonical opportunities (keyset pagination, signed cursor).',
          description:
            'Newest first. Each opportunity delivered to the account for the first time in the period consumes one unit of allowance (then prepaid credit); repeats are free. unseen_only=true returns only records not yet delivered this period (each one new, so each consumed); max_new=N caps the new records of one page without skipping any (the page stops before the (N+1)-th new one, next_cursor continues right after it). The cheap path for an agent: count with include=new_count (free) to see how many are new and what they would cost, then list with unseen_only=true and max_new. Send a held ETag in If-None-Match: 304 (nothing consumed, no request id spent) when the page is unchanged and every record on it was already delivered.',
          parameters: [...queryParameters('list'), requestIdHeader, ifNoneMatchHeader],
          responses: {
            '200': ok('ListEnvelope', { ...AUTH_HEADERS, ETag: ETAG_HEADER }),
            '304': notModified(
              'every record on the page was already delivered this period (nothing consumed, no request id spent)',
            ),
            ...errors(AUTH_ERRORS, AUTH_HEADERS),
          },
        },
      },
      '/v1/opportunities/count': {
        get: {
          operationId: 'countOpportunities',
          tags: ['Opportunities'],
          summary: 'The number of matching opportunities; consumes no allowance.',
          description:
            'Free, facets and new_count included. group_by (one or two dimensions) and group_limit add groups and other_count at each level, exact: a bucket counts what the same filters plus that value count. include=new_count adds new_count (matching records not yet delivered to this account this period) and new_cost_millicents (what listing them all would take from the prepaid wallet after the remaining included allowance), exact whatever the number of deliveries. Dashboards (decisions 13): histogram=published|first_seen with interval=day|week|month adds histogram (HistogramBucket: matching records per UTC bucket, weeks from Monday, ascending, empty buckets included, at most 400); stats=rate adds rate_stats (RateStatistics per rate unit and currency: count, min and max exact, p25, median and p75 within 5 %). Both combine with every filter, with each other and with group_by, and are free. If-None-Match with the ETag of an earlier answer: 304 when the count envelope is unchanged.',
          parameters: [...queryParameters('count'), ifNoneMatchHeader],
          responses: {
            '200': ok('CountEnvelope', { ...AUTH_HEADERS, ETag: ETAG_HEADER }),
            '304': notModified('the count is unchanged'),
            ...errors(['400', '401', '403', '422', '429', '500', '503'], AUTH_HEADERS),
          },
        },
      },
      '/v1/opportunities/changes': {
        get: {
          operationId: 'listOpportunityChanges',
          tags: ['Opportunities'],
          summary:
            'Change feed to keep an integration current: changes in indexing order, each record once at its latest state, tombstones for removed records, a cursor to poll from. Metered like list (new records consume, repeats and tombstones are free).',
          description:
            `${ACCEPTABLE_USE} The feed keeps an integration current; it is not a way to rebuild or republish the dataset.\n\n` +
            'since=ISO (or YYYY-MM-DD): changes whose changed_at is at or after it (a tombstone is timed by its deletion); neither since nor cursor: the whole store from the start. pagination.next_cursor is never null: keep it and poll from it later (it carries since and is bound to the account); has_more says whether more changes exist now. A record removed from the store (admin CLI `delete ID`, or an import line {"id": "...", "deleted": true}) appears once as a tombstone { id, deleted: true, changed_at }. Records are metered like list (new ones consume, repeats are free, the call spends its request id); tombstones are free. Not exposed over MCP.',
          parameters: [...queryParameters(ChangesQuery), ...fieldsParameter(), requestIdHeader],
          responses: {
            '200': ok('ChangesEnvelope', AUTH_HEADERS),
            ...errors(AUTH_ERRORS, AUTH_HEADERS),
          },
        },
      },
      '/v1/opportunities/{opportunity_id}': {
        get: {
          operationId: 'getOpportunity',
          tags: ['Opportunities'],
          summary: 'One canonical opportunity, whatever its liveness.',
          parameters: [
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
            ...errors([...AUTH_ERRORS, '404'], AUTH_HEADERS),
          },
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'getUsage',
          tags: ['Account'],
          summary:
            "The account's usage: the usage headers in one body. Free; spends no request id; counts against the rate limit.",
          responses: {
            '200': ok('Usage', AUTH_HEADERS),
            ...errors(['401', '403', '429', '500', '503'], AUTH_HEADERS),
          },
        },
      },
      '/v1/taxonomy/occupations': {
        get: {
          operationId: 'getOccupationTaxonomy',
          tags: ['Taxonomy'],
          summary: 'The versioned occupational taxonomy; no key needed; cacheable (ETag).',
          security: [],
          responses: {
            '200': { ...ok('Taxonomy', { ETag: str, 'Cache-Control': str }) },
            '304': { description: 'Not modified (If-None-Match matched the ETag).' },
            // A malformed X-Request-ID is refused before any route (decisions 4).
            ...errors(['422', '500'], {}),
          },
        },
      },
      '/v1/preview/opportunities': {
        get: {
          operationId: 'previewOpportunities',
          tags: ['Preview'],
          summary: 'Anonymous preview: at most five live opportunities, no pagination.',
          security: [],
          parameters: queryParameters('preview'),
          responses: {
            '200': ok('PreviewListEnvelope', {}),
            ...errors(['400', '422', '500', '503'], {}),
            '429': {
              description: 'preview_rate_limit_exceeded (with Retry-After)',
              headers: { 'Retry-After': RETRY_AFTER },
              content: { 'application/json': { schema: ref('ErrorEnvelope') } },
            },
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['Discovery'],
          summary: 'This document.',
          security: [],
          responses: {
            '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': {} } },
            ...errors(['422', '500'], {}),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        // /mcp also takes the key as a bearer token; it is no operation of this document, so no
        // scheme here describes that (an unused scheme is a Redocly warning).
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The API key (see "Get a key" above). Never in a URL.',
        },
      },
      headers: USAGE_HEADERS,
      // decisions 11: named components, referenced by $ref wherever they are reused.
      schemas: componentSchemas({
        Opportunity,
        SparseOpportunity,
        PreviewOpportunity,
        ListEnvelope,
        PreviewListEnvelope,
        CountEnvelope,
        HistogramBucket,
        RateStatistics,
        ChangesEnvelope,
        Tombstone,
        DetailEnvelope,
        TaxonomyNode: TaxonomyNodeSchema,
        Taxonomy: TaxonomyEnvelope,
        ErrorEnvelope,
        Usage: UsageEnvelope,
      }),
    },
  };
}
