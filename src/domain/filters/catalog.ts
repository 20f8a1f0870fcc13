import {
  ACTIONABILITY,
  COMMERCIAL_ELIGIBILITY,
  ENGAGEMENT_MODELS,
  LEVELS,
  LIVENESS_STATUSES,
  MANAGEMENT_TRACKS,
  PAY_BASES,
  WORK_STRUCTURES,
} from '../vocab';
import type { Endpoint, ParamKind, ParamName, ParamSpec } from './types';

// The one catalog of request parameters (contract 4.1-4.3, decisions 2 and 5). Parsing, the REST
// and MCP schemas and the OpenAPI document are all generated from it; its order is the order in
// which values are checked, so a request with several problems reports the first in this order.

const DATE_FORMAT =
  'ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date ' +
  'YYYY-MM-DD meaning 00:00:00Z.';
const TAXONOMY_IDS = 'Ids from GET /v1/taxonomy/occupations, never labels.';
const CASE_INSENSITIVE = 'Exact match, case-insensitive.';

const spec = (
  name: ParamName,
  kind: ParamKind,
  description: string,
  extra: Partial<Pick<ParamSpec, 'values' | 'level'>> = {},
): ParamSpec => ({ name, kind, description, ...extra });

export const PARAMS: readonly ParamSpec[] = [
  spec(
    'published_after',
    'date',
    `Published by the provider at or after this instant (published_at). Records without a published date never match. ${DATE_FORMAT}`,
  ),
  spec(
    'published_before',
    'date',
    `Published by the provider at or before this instant (published_at). Records without a published date never match. ${DATE_FORMAT}`,
  ),
  spec(
    'fresh_after',
    'date',
    `Freshness at or after this instant: published_at, falling back to first_seen when the provider gives no date. ${DATE_FORMAT}`,
  ),
  spec(
    'job_domain',
    'taxonomy',
    `One domain id; matches the domain and every descendant. ${TAXONOMY_IDS}`,
    { level: 'domain' },
  ),
  spec(
    'job_family',
    'taxonomy_list',
    `Family ids (OR); a family includes every descendant subfamily and class. ${TAXONOMY_IDS}`,
    { level: 'family' },
  ),
  spec(
    'job_subfamily',
    'taxonomy_list',
    `Subfamily ids (OR). A subfamily narrows its own parent family: job_family=data,software_engineering with job_subfamily=data_engineering gives data_engineering plus all of software_engineering. When job_family is given, each subfamily's family must be among it. ${TAXONOMY_IDS}`,
    { level: 'subfamily' },
  ),
  spec(
    'job_class',
    'taxonomy_list',
    `Exact class (role) ids (OR); no descendants. ${TAXONOMY_IDS}`,
    { level: 'class' },
  ),
  spec('normalized_title', 'text', `Normalized role title. ${CASE_INSENSITIVE}`),
  spec('level', 'enum_list', 'Seniority levels (OR).', { values: LEVELS }),
  spec('management_track', 'enum', 'Management track.', { values: MANAGEMENT_TRACKS }),
  spec(
    'specializations',
    'text',
    `One specialization; matches records whose specializations contain it. ${CASE_INSENSITIVE}`,
  ),
  spec(
    'engagement_model',
    'enum',
    'Records whose engagement_models contain this model. Freelance and independent work normalize to 1099; c2c matches only explicit c2c (w2_contract is no evidence of c2c).',
    { values: ENGAGEMENT_MODELS },
  ),
  spec(
    'commercial_eligibility',
    'enum',
    'Exact commercial eligibility. `unknown` is not eligible: eligible never matches unknown.',
    { values: COMMERCIAL_ELIGIBILITY },
  ),
  spec('actionability', 'enum', 'Exact actionability.', { values: ACTIONABILITY }),
  spec(
    'remote',
    'boolean',
    'true: location.remote is true, which does NOT mean worldwide (check location.remote_scope and country). false: explicitly not remote. Records whose remote status is unknown match neither.',
  ),
  spec(
    'country',
    'country',
    'ISO 3166-1 alpha-2 code (US, GB), case-insensitive. A missing location does not mean unrestricted work.',
  ),
  spec('city', 'text', `City name. ${CASE_INSENSITIVE}`),
  spec(
    'state',
    'text',
    `State or region, by code (CA) or name (California); same as region. ${CASE_INSENSITIVE}`,
  ),
  spec('region', 'text', `State or region, by code (CA) or name (California). ${CASE_INSENSITIVE}`),
  spec(
    'rate_min',
    'decimal',
    "Non-negative decimal (80 or 80.5). Matches rates whose upper bound (max, else min) is >= this, in the record's own currency and unit: combine with currency and pay_basis. Records without a rate never match; a null rate does not mean zero pay.",
  ),
  spec(
    'rate_max',
    'decimal',
    "Non-negative decimal. Matches rates whose lower bound (min, else max) is <= this, in the record's own currency and unit. Records without a rate never match.",
  ),
  spec('currency', 'text', `ISO 4217 currency code of the rate (USD). ${CASE_INSENSITIVE}`),
  spec('pay_basis', 'enum_list', 'Pay bases (OR).', { values: PAY_BASES }),
  spec(
    'work_structure',
    'enum_list',
    'Work structures (OR); ongoing_contract also matches contract_duration.',
    { values: WORK_STRUCTURES },
  ),
  spec('source', 'text', `Stable source id (greenhouse). ${CASE_INSENSITIVE}`),
  spec('liveness_status', 'enum', 'Whether the opportunity still looks actionable.', {
    values: LIVENESS_STATUSES,
  }),
  spec(
    'first_seen_after',
    'date',
    `First observed by the service at or after this instant (first_seen). ${DATE_FORMAT}`,
  ),
  spec(
    'changed_since',
    'date',
    `Last recorded change at or after this instant (changed_at); records may still change or vanish between pages. ${DATE_FORMAT}`,
  ),
  spec(
    'cursor',
    'cursor',
    'Opaque signed token from pagination.next_cursor. Pass it back unchanged with exactly the same filters (the limit may change); it is bound to the filters and the account, otherwise malformed_cursor. Omit it for the first page.',
  ),
  spec(
    'limit',
    'limit',
    "Page size, an integer from 1 to 100 (default 25); above the account's maximum page size gives page_size_exceeded.",
  ),
];

export const PARAMS_BY_NAME: ReadonlyMap<string, ParamSpec> = new Map(
  PARAMS.map((p) => [p.name, p]),
);

/** Every filter of contract 4.2 (no paging parameters). */
export const FILTER_PARAMS: readonly ParamName[] = PARAMS.map((p) => p.name).filter(
  (n) => n !== 'cursor' && n !== 'limit',
);

/** Contract 4.1's parameter list, exactly (decisions 5). */
export const PREVIEW_PARAMS: readonly ParamName[] = [
  'published_after',
  'job_family',
  'job_subfamily',
  'job_class',
  'level',
  'engagement_model',
  'commercial_eligibility',
  'remote',
  'region',
  'rate_min',
  'pay_basis',
  'work_structure',
  'liveness_status',
  'cursor',
  'limit',
];

const ENDPOINT_PARAMS: Record<Endpoint, ReadonlySet<ParamName>> = {
  list: new Set([...FILTER_PARAMS, 'cursor', 'limit']),
  count: new Set(FILTER_PARAMS), // contract 4.3: no paging parameters
  preview: new Set(PREVIEW_PARAMS),
};

/** The parameters an endpoint accepts, in catalog (check) order. */
export function endpointParams(endpoint: Endpoint): ParamSpec[] {
  return PARAMS.filter((p) => ENDPOINT_PARAMS[endpoint].has(p.name));
}

/**
 * Whether a request may carry the parameter. The preview's cursor is listed by contract 4.1
 * ("accepted by the schema") so it stays in the preview's schema, but pagination is unavailable:
 * a cursor there is rejected (decisions 5).
 */
export function acceptsParam(endpoint: Endpoint, name: ParamName): boolean {
  if (endpoint === 'preview' && name === 'cursor') return false;
  return ENDPOINT_PARAMS[endpoint].has(name);
}

/**
 * Whether the parameter takes several values on this endpoint. Contract 4.1 types the preview's
 * job_family/job_subfamily/job_class/level/pay_basis/work_structure as a plain string: one value.
 */
export function isListParam(spec: ParamSpec, endpoint: Endpoint): boolean {
  return isListKind(spec) && endpoint !== 'preview';
}

/** Whether the filter value is a list (arrays in Filter, even when the preview took one value). */
export function isListKind(spec: ParamSpec): boolean {
  return spec.kind === 'enum_list' || spec.kind === 'taxonomy_list';
}

/** Page-size bounds (contract 4.1/4.2, decisions 5). */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_LIST_LIMIT = 25;
export const PREVIEW_MAX_LIMIT = 5;
