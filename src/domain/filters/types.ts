import type { DecimalBound } from './decimal-bound';
import type { HistogramField, HistogramInterval, StatsName } from '../aggregates';
import type { Taxonomy, TaxonomyLevel } from '../taxonomy';

// Types shared by the filter catalog, the two request adapters (REST query, MCP tool arguments)
// and the search query builder. Contract §6, §9.2.

/** The three read endpoints that take filters: list (4.2), count (4.3), preview (4.1). */
export type Endpoint = 'list' | 'count' | 'preview';

/**
 * How a parameter's value is read and checked. `*_list` kinds are comma-separated in REST and
 * arrays in tool arguments (OR within the parameter, contract §6.2).
 */
export type ParamKind =
  | 'date'
  | 'enum'
  | 'enum_list'
  | 'taxonomy'
  | 'taxonomy_list'
  | 'text'
  | 'boolean'
  | 'decimal'
  | 'country'
  | 'cursor'
  | 'limit'
  | 'integer'
  /** Keyword search text (contract §7.3): commas and every other character are text. */
  | 'query';

/**
 * The normalized filters of one request. Only parameters that were given are present; list
 * parameters are arrays (de-duplicated, order kept), dates ISO 8601 strings in UTC with
 * milliseconds, numbers numbers, booleans booleans, country upper-case (contract §6.13).
 * The same object is echoed as meta.applied_filters.
 */
export type Filter = {
  /** Keyword search (contract §7.3), trimmed; the syntax is read by keyword-query.ts. */
  q?: string;
  /** List order (contract §7.5); absent means freshness. Bound to the cursor like any filter. */
  sort?: 'freshness' | 'relevance';
  published_after?: string;
  published_before?: string;
  fresh_after?: string;
  job_domain?: string;
  job_family?: string[];
  job_subfamily?: string[];
  job_class?: string[];
  normalized_title?: string;
  level?: string[];
  management_track?: string;
  specializations?: string;
  engagement_model?: string;
  commercial_eligibility?: string;
  actionability?: string;
  remote?: boolean;
  country?: string;
  city?: string;
  state?: string;
  region?: string;
  rate_min?: number;
  rate_max?: number;
  currency?: string;
  pay_basis?: string[];
  work_structure?: string[];
  source?: string;
  liveness_status?: string;
  first_seen_after?: string;
  changed_since?: string;
  /** List only: records not yet delivered to the account this period (contract §11.1). */
  unseen_only?: boolean;
};

export type FilterName = keyof Filter;
/** Request options that shape a response but select nothing (contract §10.2, §10.3, §11); never in the digest. */
export type OptionName =
  | 'max_new'
  | 'group_by'
  | 'group_limit'
  | 'include'
  | 'include_new_count'
  | 'fields'
  | 'histogram'
  | 'interval'
  | 'stats';
export type ParamName = FilterName | 'cursor' | 'limit' | OptionName;

/** Which adapter takes a parameter; both when unset (REST `include`, MCP `include_new_count`). */
export type Surface = 'rest' | 'tool';
export type FilterValue = Filter[FilterName];

export interface ParamSpec {
  readonly name: ParamName;
  readonly kind: ParamKind;
  /** Allowed ids of an enum kind. */
  readonly values?: readonly string[];
  /** Required taxonomy level of a taxonomy kind. */
  readonly level?: TaxonomyLevel;
  /** Agent-facing description (OpenAPI document and MCP input schema). */
  readonly description: string;
  /** Only this adapter takes it; both when unset. */
  readonly surface?: Surface;
  /** Bounds of an `integer` kind. */
  readonly min?: number;
  readonly max?: number;
  /** Most items of a list kind, when fewer than unbounded (group_by); none repeated then. */
  readonly maxItems?: number;
  /** How a `decimal` kind bounds the stored value: its text is read exactly (decimal-bound.ts). */
  readonly bound?: DecimalBound;
}

/** Parsed request options (contract §10.2, §10.3, §11). */
export interface RequestOptions {
  /** Count facets: one or two dimensions, in the order given. */
  groupBy?: string[];
  /** Buckets per level, 1-100. */
  groupLimit: number;
  /** Count: add new_count and new_cost_millicents. */
  includeNewCount: boolean;
  /** List: the page's budget of new opportunities, 0-100. */
  maxNew?: number;
  /** List, detail, change feed: the top-level record fields to return besides id (contract §7.6). */
  fields?: string[];
  /** Count: the histogram's time field and interval (contract §10.4); both or neither. */
  histogram?: HistogramField;
  interval?: HistogramInterval;
  /** Count: statistics to add (contract §10.5). */
  stats?: StatsName;
}

export interface ParseContext {
  taxonomy: Taxonomy;
  /** The account's maximum page size (plan or key); capped at 100. Ignored by preview and count. */
  maxPageSize?: number;
}

export interface ParsedRequest {
  filter: Filter;
  /** The raw cursor token, unverified: decode it with CursorCodec against filterDigest(filter). */
  cursor?: string;
  /** Page size to return: the given limit or the endpoint default. 0 for count (no paging). */
  limit: number;
  /** meta.applied_filters: the normalized filters that were given (equal to `filter`). */
  appliedFilters: Filter;
  options: RequestOptions;
}

/** A parameter value after an adapter has checked its wire shape (REST text or tool JSON). */
export type Coerced =
  | { type: 'strings'; items: string[] }
  | { type: 'boolean'; value: boolean }
  | { type: 'number'; value: number };

/**
 * Adapter hook: turn one raw value into a Coerced value, throwing 422 validation_error for a
 * wrong type or format and 400 not_a_list for several values where one is allowed.
 * `list` says whether the parameter accepts several values on this endpoint.
 */
export type Coerce = (spec: ParamSpec, list: boolean, raw: unknown) => Coerced;
