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
import {
  HISTOGRAM_FIELDS,
  HISTOGRAM_INTERVALS,
  MAX_HISTOGRAM_BUCKETS,
  STATS_NAMES,
} from '../aggregates';
import {
  DEFAULT_GROUP_LIMIT,
  FACET_DIMENSIONS,
  MAX_GROUP_DIMENSIONS,
  MAX_GROUP_LIMIT,
  MAX_NEW_LIMIT,
} from '../facets';
import { OPPORTUNITY_FIELDS } from '../record';
import { MAX_QUERY_LENGTH, QUERY_SYNTAX } from './keyword-query';
import type { Endpoint, OptionName, ParamKind, ParamName, ParamSpec, Surface } from './types';

// The one catalog of request parameters (contract §5.3, §5.4, §6, §9.2). Parsing, the REST
// and MCP schemas and the OpenAPI document are all generated from it; its order is the order in
// which values are checked, so a request with several problems reports the first in this order.

const DATE_FORMAT =
  'ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date ' +
  'YYYY-MM-DD meaning 00:00:00Z.';
const TAXONOMY_IDS =
  'Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy).';
const CASE_INSENSITIVE = 'Exact match, case-insensitive.';
/** contract §7.5, §8.1: the list orders. */
export const SORT_ORDERS = ['freshness', 'relevance'] as const;

const spec = (
  name: ParamName,
  kind: ParamKind,
  description: string,
  extra: Partial<
    Pick<ParamSpec, 'values' | 'level' | 'surface' | 'min' | 'max' | 'maxItems' | 'bound'>
  > = {},
): ParamSpec => ({ name, kind, description, ...extra });

export const PARAMS: readonly ParamSpec[] = [
  spec(
    'q',
    'query',
    `Keyword search, 1 to ${MAX_QUERY_LENGTH} characters, over the title, normalized title, specializations, employer, intermediary, organization names and the labels of the record's taxonomy family, subfamily and class. ${QUERY_SYNTAX} Combines with every other filter (AND).`,
  ),
  spec(
    'sort',
    'enum',
    'Order of the list: freshness (default: published_at, else first_seen, newest first, then id) or relevance (keyword score of q, best first, then the freshness order; needs q; scores move whenever the index changes, so a walk that must reach every record uses freshness). Bound to the cursor like a filter.',
    { values: SORT_ORDERS },
  ),
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
    { bound: 'at_least' },
  ),
  spec(
    'rate_max',
    'decimal',
    "Non-negative decimal. Matches rates whose lower bound (min, else max) is <= this, in the record's own currency and unit. Records without a rate never match.",
    { bound: 'at_most' },
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
    'unseen_only',
    'boolean',
    'true: only opportunities not yet delivered to this account in the current period, so every record returned is new and spends allowance (repeats are left out). Bound to the cursor like any filter. Check the cost first with count and include=new_count.',
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
  spec(
    'max_new',
    'integer',
    `Budget of new opportunities for this page, an integer from 0 to ${MAX_NEW_LIMIT}: the page stops before the record that would be the (max_new+1)-th new one (repeats still come, up to limit), has_more stays true and next_cursor continues right after the last returned record, so nothing is skipped. 0 returns only repeats. Not bound to the cursor: it may change from page to page.`,
    { min: 0, max: MAX_NEW_LIMIT },
  ),
  spec(
    'fields',
    'enum_list',
    'Sparse records: the top-level fields of the record to return. Every record then has exactly id plus these fields (id always comes); without fields, the whole record. Smaller records, same price: a record delivered is charged whatever fields were asked for. Not bound to the cursor: it may change from page to page.',
    { values: OPPORTUNITY_FIELDS },
  ),
  spec(
    'group_by',
    'enum_list',
    'Count facets: one or two dimensions (the second nests inside each bucket of the first). Adds groups: [{ value, count, groups? }] (by count descending, then value) and other_count (matching records in no returned bucket) at each level. A bucket counts what the same filters plus that value count; taxonomy buckets include descendants.',
    { values: FACET_DIMENSIONS, maxItems: MAX_GROUP_DIMENSIONS },
  ),
  spec(
    'group_limit',
    'integer',
    `Buckets per level of group_by, an integer from 1 to ${MAX_GROUP_LIMIT} (default ${DEFAULT_GROUP_LIMIT}); only taken with group_by (otherwise invalid_filter).`,
    { min: 1, max: MAX_GROUP_LIMIT },
  ),
  spec(
    'include',
    'enum_list',
    'new_count: adds new_count (matching records not yet delivered to this account in the current period: what listing them all would consume) and new_cost_millicents (what that would take from the prepaid wallet after the remaining included allowance). Still free.',
    // Each value at most once (contract §10.3): with one value, a list of one.
    { values: ['new_count'], maxItems: 1, surface: 'rest' },
  ),
  spec(
    'include_new_count',
    'boolean',
    'true: adds new_count (matching records not yet delivered to this account in the current period: what listing them all would consume) and new_cost_millicents (what that would take from the prepaid wallet after the remaining included allowance). Still free.',
    { surface: 'tool' },
  ),
  spec(
    'histogram',
    'enum',
    `Adds histogram: [{ start, count }], the matching records per UTC time bucket of this field, ascending, exact, empty buckets included between the first and the last non-empty one. published: the freshness time (published_at, else first_seen); first_seen: when the service first saw the record. Needs interval. More than ${MAX_HISTOGRAM_BUCKETS} buckets gives invalid_filter (parameter interval): narrow the dates or take a longer interval. Free.`,
    { values: HISTOGRAM_FIELDS },
  ),
  spec(
    'interval',
    'enum',
    "The histogram's bucket: day, week (starting Monday 00:00 UTC) or month (the 1st, 00:00 UTC). Required with histogram and only taken with it (otherwise invalid_filter).",
    { values: HISTOGRAM_INTERVALS },
  ),
  spec(
    'stats',
    'enum',
    "rate: adds rate_stats: [{ unit, currency, count, min, max, p25, median, p75 }], one entry per rate unit and currency among the matching records that have a rate, by count descending. A record's value is the midpoint of its rate min and max (the one bound when only one is given); count, min and max are exact, the percentiles within 5 %. Records without a rate are in no entry. Free.",
    { values: STATS_NAMES },
  ),
];

/** Parameters that shape a response but select nothing: not filters, not in the cursor digest. */
export const OPTION_PARAMS: ReadonlySet<ParamName> = new Set<OptionName>([
  'max_new',
  'fields',
  'group_by',
  'group_limit',
  'include',
  'include_new_count',
  'histogram',
  'interval',
  'stats',
]);

export const PARAMS_BY_NAME: ReadonlyMap<string, ParamSpec> = new Map(
  PARAMS.map((p) => [p.name, p]),
);

/** Every filter of contract §6.1 and q (no paging parameters, no order). */
export const FILTER_PARAMS: readonly ParamName[] = PARAMS.map((p) => p.name).filter(
  (n) =>
    n !== 'cursor' && n !== 'limit' && n !== 'unseen_only' && n !== 'sort' && !OPTION_PARAMS.has(n),
);

/** The preview's parameter list (contract §9.2), plus q and sort (§7.1, §7.5). */
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
  'q',
  'sort',
  'cursor',
  'limit',
];

const ENDPOINT_PARAMS: Record<Endpoint, ReadonlySet<ParamName>> = {
  list: new Set([...FILTER_PARAMS, 'sort', 'unseen_only', 'cursor', 'limit', 'max_new', 'fields']),
  // contract §5.4: no paging parameters, no order (§7.5); §10.2, §10.3: facets, new_count;
  // contract §10.4, §10.5: histograms and rate statistics
  count: new Set([
    ...FILTER_PARAMS,
    'group_by',
    'group_limit',
    'include',
    'include_new_count',
    'histogram',
    'interval',
    'stats',
  ]),
  preview: new Set(PREVIEW_PARAMS),
};

/** The parameters an endpoint accepts on one surface, in catalog (check) order. */
export function endpointParams(endpoint: Endpoint, surface: Surface = 'rest'): ParamSpec[] {
  return PARAMS.filter(
    (p) => ENDPOINT_PARAMS[endpoint].has(p.name) && (p.surface ?? surface) === surface,
  );
}

/**
 * Whether a request may carry the parameter. The preview's cursor is listed by contract §9.2
 * ("accepted by the schema") so it stays in the preview's schema, but pagination is unavailable:
 * a cursor there is rejected (contract §9.2).
 */
export function acceptsParam(endpoint: Endpoint, name: ParamName): boolean {
  if (endpoint === 'preview' && name === 'cursor') return false;
  return ENDPOINT_PARAMS[endpoint].has(name);
}

/**
 * Whether the parameter takes several values on this endpoint. Contract §9.2 types the preview's
 * job_family/job_subfamily/job_class/level/pay_basis/work_structure as a plain string: one value.
 */
export function isListParam(spec: ParamSpec, endpoint: Endpoint): boolean {
  return isListKind(spec) && endpoint !== 'preview';
}

/** Whether the filter value is a list (arrays in Filter, even when the preview took one value). */
export function isListKind(spec: ParamSpec): boolean {
  return spec.kind === 'enum_list' || spec.kind === 'taxonomy_list';
}

/** Page-size bounds (contract §6.6, §9.3). */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_LIST_LIMIT = 25;
export const PREVIEW_MAX_LIMIT = 5;
/**
 * Longest free-text value, in characters (code points, as JSON Schema's maxLength counts): the
 * longest record field a text filter matches exactly (normalized_title, domain/record.ts), so
 * that every stored value can be asked for.
 */
export const MAX_TEXT_LENGTH = 300;
