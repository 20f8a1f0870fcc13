import { indexLowerCase } from '../domain/index-case';
import { parseKeywordQuery, type Filter } from '../domain/filters';
import type { Taxonomy } from '../domain/taxonomy';
import type { OpportunityDocument } from './documents';
import { TextMatcher } from './memory-text';
import { familyIds, workStructures } from './query-builder';

// contract §6 evaluated in process over indexed documents (search/documents.ts derives the same
// fields OpenSearch filters on: taxonomy ancestors, freshness, region terms, rate bounds). One
// predicate per filter; the fields OpenSearch normalizes to lower case compare case-insensitively,
// the others exactly; a missing value never matches a range or a term.

type Predicate = (doc: OpportunityDocument) => boolean;

const millis = (value: string | null): number | null =>
  value === null ? null : new Date(value).getTime();
const atLeast = (value: string | null, bound: string) =>
  value !== null && (millis(value) as number) >= (millis(bound) as number);
const atMost = (value: string | null, bound: string) =>
  value !== null && (millis(value) as number) <= (millis(bound) as number);
const sameText = (value: string | null | undefined, wanted: string) =>
  typeof value === 'string' && indexLowerCase(value) === indexLowerCase(wanted);
const anyText = (values: readonly string[], wanted: string) =>
  values.some((v) => sameText(v, wanted));

/** The predicate of a filter: every given parameter must hold (AND), a list parameter is an OR. */
export function filterPredicate(
  filter: Filter,
  taxonomy: Taxonomy,
  options: { liveOnly?: boolean } = {},
): Predicate {
  const f = filter;
  const checks: Predicate[] = [];
  const add = (check: Predicate) => checks.push(check);
  if (f.published_after) add((d) => atLeast(d.published_at, f.published_after as string));
  if (f.published_before) add((d) => atMost(d.published_at, f.published_before as string));
  if (f.fresh_after) add((d) => atLeast(d.freshness, f.fresh_after as string));
  // Taxonomy filters match descendants through the ancestors; a subfamily narrows its family.
  if (f.job_domain) add((d) => d.taxonomy_ancestors.includes(f.job_domain as string));
  const families = familyIds(f, taxonomy);
  if (families) add((d) => families.some((id) => d.taxonomy_ancestors.includes(id)));
  if (f.job_class) add((d) => d.job_class !== null && f.job_class?.includes(d.job_class) === true);
  if (f.normalized_title) add((d) => sameText(d.normalized_title, f.normalized_title as string));
  if (f.level) add((d) => f.level?.includes(d.level) === true);
  if (f.management_track) add((d) => d.management_track === f.management_track);
  if (f.specializations) add((d) => anyText(d.specializations, f.specializations as string));
  if (f.engagement_model) add((d) => d.engagement_models.includes(f.engagement_model as string));
  if (f.commercial_eligibility) add((d) => d.commercial_eligibility === f.commercial_eligibility);
  if (f.actionability) add((d) => d.actionability === f.actionability);
  if (f.remote !== undefined) add((d) => d.remote === f.remote);
  if (f.country) add((d) => sameText(d.country, f.country as string));
  if (f.city) add((d) => sameText(d.city, f.city as string));
  if (f.state) add((d) => anyText(d.region_terms, f.state as string));
  if (f.region) add((d) => anyText(d.region_terms, f.region as string));
  // rate_min against the upper bound, rate_max against the lower bound (contract §6.9).
  if (f.rate_min !== undefined)
    add((d) => d.rate_high !== null && d.rate_high >= (f.rate_min as number));
  if (f.rate_max !== undefined)
    add((d) => d.rate_low !== null && d.rate_low <= (f.rate_max as number));
  if (f.currency) add((d) => sameText(d.currency, f.currency as string));
  if (f.pay_basis) add((d) => f.pay_basis?.includes(d.pay_basis) === true);
  if (f.work_structure) {
    const wanted = workStructures(f.work_structure);
    add((d) => wanted.includes(d.work_structure));
  }
  if (f.source) add((d) => anyText(d.sources, f.source as string));
  if (f.liveness_status) add((d) => d.liveness_status === f.liveness_status);
  if (options.liveOnly) add((d) => d.liveness_status === 'live');
  if (f.first_seen_after) add((d) => atLeast(d.first_seen, f.first_seen_after as string));
  if (f.changed_since) add((d) => atLeast(d.changed_at, f.changed_since as string));
  if (f.q !== undefined) {
    const text = new TextMatcher(parseKeywordQuery(f.q)); // contract §7.2, memory-text.ts
    add((d) => text.matches(d));
  }
  return (doc) => checks.every((check) => check(doc));
}
