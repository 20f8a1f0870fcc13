import { indexLowerCase } from '../domain/index-case';
import { parseKeywordQuery, type Filter } from '../domain/filters';
import type { Taxonomy } from '../domain/taxonomy';
import { excluding } from './exclusions';
import type { FilterClause, FilterQuery, RangeBounds, TermValue } from './query-shapes';
import { excludedClauses, requiredClauses, scoringClauses } from './keyword-clauses';

// Turns normalized filters into an OpenSearch query over index-mappings/opportunities.json
// (contract §6.2). Filter context, so no scoring and the order is LIST_SORT (contract §8.1), except
// for a list under sort=relevance, whose keyword clauses also score (contract §7.5).

// The clause and query shapes live in query-shapes.ts, which exclusions.ts reads without a cycle.
export type { FilterClause, FilterQuery, RangeBounds, TermValue } from './query-shapes';

export interface QueryOptions {
  /** Preview: only live records, whatever the filters say (contract §9.1). */
  liveOnly?: boolean;
  /** Add the scored clauses of q (a list under sort=relevance). */
  score?: boolean;
}

/** Keyset order: freshness (published_at, else first_seen) desc, then id asc (contract §8.1). */
export const LIST_SORT: ReadonlyArray<Record<string, 'asc' | 'desc'>> = [
  { freshness: 'desc' },
  { id: 'asc' },
];

/** sort=relevance (contract §7.5): the score of q, then the freshness order. */
export const RELEVANCE_SORT: ReadonlyArray<Record<string, 'asc' | 'desc'>> = [
  { _score: 'desc' },
  ...LIST_SORT,
];

/** A freshness page's search_after: [freshness epoch millis, id], its last hit's sort values. */
export type FreshnessPosition = [number, string];
/**
 * A relevance page's search_after: [score, freshness, id]. The score is the engine's float as it
 * returned it (a JSON number round-trips exactly), so the next page starts exactly after it.
 */
export type RelevancePosition = [number, number, string];
export type SearchAfter = FreshnessPosition | RelevancePosition;

/** Before every record of the order: where a page that stopped at once resumes. */
export function startPosition(sort: Filter['sort']): SearchAfter {
  // A score above any BM25 score (and within a float, as the engine parses it), a freshness above
  // any date, and the smallest id.
  return sort === 'relevance'
    ? [3.4e38, Number.MAX_SAFE_INTEGER, '0']
    : [Number.MAX_SAFE_INTEGER, '0'];
}

/** The order of a list: relevance when asked for (q is then present), else freshness. */
export const sortOf = (filter: Filter) =>
  filter.sort === 'relevance' ? RELEVANCE_SORT : LIST_SORT;

const term = (field: string, value: TermValue): FilterClause => ({ term: { [field]: value } });
const terms = (field: string, values: string[]): FilterClause => ({ terms: { [field]: values } });
const range = (field: string, bounds: RangeBounds<string> | RangeBounds<number>): FilterClause => ({
  range: { [field]: bounds },
});

/**
 * job_family matches the family and its descendants; a given subfamily narrows its own family
 * (contract §6.7): job_family=data,software_engineering + job_subfamily=data_engineering →
 * data_engineering OR software_engineering. Without job_family, subfamilies are just OR'ed.
 * taxonomy_ancestors holds the record's domain, family, subfamily and class ids.
 */
export function familyIds(filter: Filter, taxonomy: Taxonomy): string[] | undefined {
  const subfamilies = filter.job_subfamily ?? [];
  if (!filter.job_family) return filter.job_subfamily;
  return filter.job_family.flatMap((family) => {
    const narrowed = subfamilies.filter((s) => taxonomy.ancestorAt(s, 'family') === family);
    return narrowed.length > 0 ? narrowed : [family];
  });
}

function taxonomyClauses(filter: Filter, taxonomy: Taxonomy): FilterClause[] {
  const out: FilterClause[] = [];
  if (filter.job_domain) out.push(term('taxonomy_ancestors', filter.job_domain));
  const families = familyIds(filter, taxonomy);
  if (families) out.push(terms('taxonomy_ancestors', families));
  if (filter.job_class) out.push(terms('job_class', filter.job_class)); // exact, no descendants
  return out;
}

/** work_structure=ongoing_contract also matches contract_duration (contract §6.8.2). */
export function workStructures(values: string[]): string[] {
  const out = values.flatMap((v) => (v === 'ongoing_contract' ? [v, 'contract_duration'] : [v]));
  return [...new Set(out)];
}

// A term query is not normalized by the engine: a term for a field with the lowercase normalizer is
// lower-cased here, code point by code point as the normalizer does (domain/index-case.ts).
const lower = indexLowerCase;

export function buildFilterQuery(
  filter: Filter,
  taxonomy: Taxonomy,
  options: QueryOptions = {},
): FilterQuery {
  const f = filter;
  const c: FilterClause[] = [];
  // All bounds inclusive; a missing field (null published_at, null rate) never matches a range.
  if (f.published_after) c.push(range('published_at', { gte: f.published_after }));
  if (f.published_before) c.push(range('published_at', { lte: f.published_before }));
  if (f.fresh_after) c.push(range('freshness', { gte: f.fresh_after }));
  c.push(...taxonomyClauses(f, taxonomy));
  if (f.normalized_title) c.push(term('normalized_title', lower(f.normalized_title)));
  if (f.level) c.push(terms('level', f.level));
  if (f.management_track) c.push(term('management_track', f.management_track));
  if (f.specializations) c.push(term('specializations', lower(f.specializations)));
  if (f.engagement_model) c.push(term('engagement_models', f.engagement_model));
  if (f.commercial_eligibility) c.push(term('commercial_eligibility', f.commercial_eligibility));
  if (f.actionability) c.push(term('actionability', f.actionability));
  // remote=false matches explicit false only; a null remote is an absent field (contract §6.10).
  if (f.remote !== undefined) c.push(term('remote', f.remote));
  if (f.country) c.push(term('country', lower(f.country)));
  if (f.city) c.push(term('city', lower(f.city)));
  // state and region both match a region name or code (region_terms).
  if (f.state) c.push(term('region_terms', lower(f.state)));
  if (f.region) c.push(term('region_terms', lower(f.region)));
  // rate_min against the upper bound, rate_max against the lower bound (contract §6.9).
  if (f.rate_min !== undefined) c.push(range('rate_high', { gte: f.rate_min }));
  if (f.rate_max !== undefined) c.push(range('rate_low', { lte: f.rate_max }));
  if (f.currency) c.push(term('currency', lower(f.currency)));
  if (f.pay_basis) c.push(terms('pay_basis', f.pay_basis));
  if (f.work_structure) c.push(terms('work_structure', workStructures(f.work_structure)));
  if (f.source) c.push(term('sources', lower(f.source)));
  if (f.liveness_status) c.push(term('liveness_status', f.liveness_status));
  if (options.liveOnly) c.push(term('liveness_status', 'live'));
  if (f.first_seen_after) c.push(range('first_seen', { gte: f.first_seen_after }));
  if (f.changed_since) c.push(range('changed_at', { gte: f.changed_since }));
  if (f.q === undefined) return c.length === 0 ? { match_all: {} } : { bool: { filter: c } };
  // contract §7.1: q ANDs with every other filter; a query of exclusions only is every record
  // but the excluded ones.
  const q = parseKeywordQuery(f.q);
  const mustNot = excludedClauses(q);
  const should = options.score ? scoringClauses(q) : [];
  return {
    bool: {
      filter: [...c, ...requiredClauses(q)],
      ...(mustNot.length > 0 ? { must_not: mustNot } : {}),
      ...(should.length > 0 ? { should } : {}),
    },
  };
}

export interface ListSearchBody {
  query: FilterQuery;
  sort: Array<Record<string, 'asc' | 'desc'>>;
  size: number;
  track_total_hits: false;
  _source: true;
  search_after?: SearchAfter;
}

export interface ListPage extends QueryOptions {
  /** Hits to fetch; ask for limit + 1 to learn whether another page exists. */
  size: number;
  /** The decoded cursor position, for every page after the first. */
  searchAfter?: SearchAfter;
  /** unseen_only: what leaves out the records delivered this period (search/exclusions.ts). */
  excluded?: readonly FilterClause[];
}

export function buildListSearchBody(
  filter: Filter,
  taxonomy: Taxonomy,
  page: ListPage,
): ListSearchBody {
  return {
    query: excluding(
      buildFilterQuery(filter, taxonomy, { ...page, score: filter.sort === 'relevance' }),
      page.excluded ?? [],
    ),
    sort: sortOf(filter).map((s) => ({ ...s })),
    size: page.size,
    track_total_hits: false, // keyset paging needs no total; counting is /count's job
    // The whole stored source, unfiltered: since mapping 7 it holds only the record's id, text
    // and digest, which the engine then copies as stored instead of parsing and filtering each
    // document (docs/search.md). An index of older code holds every field (and, before mapping 4,
    // a `record` object instead of the text): the same hits with more bytes, until a reindex.
    _source: true,
    ...(page.searchAfter ? { search_after: page.searchAfter } : {}),
  };
}

/**
 * The same search answering with each hit's sort values and record digest only (doc values,
 * mapping 6): stored fields off, so the engine reads no stored document at all (not even _id: the
 * id is the last sort value). The page's texts then come from the caller's record texts
 * (search/record-texts.ts) or a multi-get.
 */
export function digestsOnly(body: ListSearchBody): DigestsSearchBody {
  const { _source: _texts, ...rest } = body;
  return { ...rest, stored_fields: ['_none_'], docvalue_fields: ['record_digest'] };
}

export type DigestsSearchBody = Omit<ListSearchBody, '_source'> & {
  stored_fields: ['_none_'];
  docvalue_fields: ['record_digest'];
};

/** Body of a _count request (contract §5.4). */
export function buildCountBody(
  filter: Filter,
  taxonomy: Taxonomy,
  options: QueryOptions = {},
): { query: FilterQuery } {
  return { query: buildFilterQuery(filter, taxonomy, options) };
}
