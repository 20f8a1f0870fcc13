import { rateMidpoint } from '../domain/aggregates';
import { recordDigest } from '../domain/record-text';
import { freshnessOf, type Opportunity } from '../domain/record';
import type { Taxonomy } from '../domain/taxonomy';
import { storedText } from './stored-text';

/**
 * The indexed form of a record (index-mappings/opportunities.json): flattened filter fields, the
 * taxonomy ancestors for descendant matching, the freshness sort key, and the public record itself
 * so that a page is served from the index alone: as its JSON text and that text's digest, both
 * made once here, so a list page splices the texts into its reply and tags it from the digests
 * without parsing, serializing or hashing a record per request (mapping version 4).
 */
export interface OpportunityDocument {
  id: string;
  freshness: string;
  published_at: string | null;
  first_seen: string;
  changed_at: string;
  liveness_status: string;
  taxonomy_ancestors: string[];
  job_domain: string | null;
  job_family: string | null;
  job_subfamily: string | null;
  job_class: string | null;
  level: string;
  management_track: string;
  specializations: string[];
  engagement_models: string[];
  commercial_eligibility: string;
  actionability: string;
  technology_classification: string;
  pay_basis: string;
  work_structure: string;
  normalized_title: string;
  /** Keyword search (contract §7.2): the text fields that are not filter fields already. */
  title: string;
  organization_names: string[];
  taxonomy_labels: string[];
  country: string | null;
  region_terms: string[];
  city: string | null;
  remote: boolean | null;
  currency: string | null;
  rate_low: number | null;
  rate_high: number | null;
  /** stats=rate (contract §10.5): the rate's unit and its value, the midpoint of min and max. */
  rate_unit: string | null;
  rate_mid: number | null;
  sources: string[];
  /**
   * JSON.stringify(record) in ASCII (stored-text.ts; servedText gives the text back): stored, never
   * indexed (index-mappings/opportunities.json).
   */
  record_json: string;
  /** recordDigest(JSON.stringify(record)): the record's part of a list page's entity tag (list-json.ts). */
  record_digest: string;
}

export function toDocument(record: Opportunity, taxonomy: Taxonomy): OpportunityDocument {
  const declared = [record.job_domain, record.job_family, record.job_subfamily, record.job_class];
  // The deepest classified node's lineage covers the declared ids; the union keeps both honest.
  const ancestors = new Set<string>();
  const labels = new Set<string>();
  for (const id of declared) {
    if (!id) continue;
    ancestors.add(id);
    for (const node of taxonomy.lineage(id)) {
      ancestors.add(node.id);
      // The family, subfamily and class labels; a domain label (Software, Data & AI) is too broad
      // to be evidence that a record is about any one of its words.
      if (node.level !== 'domain') labels.add(node.label);
    }
  }
  const organizations = [
    record.employer,
    record.intermediary,
    ...record.organizations.map((o) => o.name),
  ];
  const { location, rate } = record;
  const json = JSON.stringify(record);
  return {
    id: record.id,
    freshness: freshnessOf(record),
    published_at: record.published_at,
    first_seen: record.first_seen,
    changed_at: record.changed_at,
    liveness_status: record.liveness_status,
    taxonomy_ancestors: [...ancestors],
    job_domain: record.job_domain,
    job_family: record.job_family,
    job_subfamily: record.job_subfamily,
    job_class: record.job_class,
    level: record.level,
    management_track: record.management_track,
    specializations: record.specializations,
    engagement_models: record.engagement_models,
    commercial_eligibility: record.commercial_eligibility,
    actionability: record.actionability,
    technology_classification: record.technology_classification,
    pay_basis: record.pay_basis,
    work_structure: record.work_structure,
    normalized_title: record.normalized_title,
    title: record.title,
    organization_names: [...new Set(organizations.filter((n): n is string => !!n))],
    taxonomy_labels: [...labels],
    country: location.country,
    region_terms: [location.region, location.region_code].filter((v): v is string => !!v),
    city: location.city,
    remote: location.remote,
    currency: rate?.currency ?? null,
    rate_low: rate ? (rate.min ?? rate.max) : null,
    rate_high: rate ? (rate.max ?? rate.min) : null,
    rate_unit: rate?.unit ?? null,
    rate_mid: rate ? rateMidpoint(rate.min, rate.max) : null,
    sources: [...new Set(record.sources.map((s) => s.source))],
    record_json: storedText(json),
    record_digest: recordDigest(json),
  };
}
