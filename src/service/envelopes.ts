import type { Filter } from '../domain/filters';
import type { ListEnvelope } from '../domain/envelopes';
import type { Opportunity, SparseOpportunity } from '../domain/record';

export type { CountEnvelope, DetailEnvelope, ListEnvelope } from '../domain/envelopes';

// Response envelopes of contract §4. Built in one place so REST and MCP return the same shapes.

export function listEnvelope(
  records: SparseOpportunity[],
  nextCursor: string | null,
  limit: number,
  requestId: string,
  appliedFilters: Filter,
): ListEnvelope {
  return {
    data: records,
    // contract §8.6: has_more is true exactly when next_cursor is not null.
    pagination: {
      returned: records.length,
      next_cursor: nextCursor,
      has_more: nextCursor !== null,
      limit,
    },
    meta: { request_id: requestId, applied_filters: appliedFilters },
  };
}

/**
 * contract §9.5: the anonymous preview shows where a record came from, not how to reach it:
 * no canonical or application URL, sources reduced to their source id, and no evidence item that
 * quotes one of the removed URLs or external ids, so none appears anywhere in the record.
 */
export function redactForPreview(record: Opportunity): Opportunity {
  const hidden = [
    record.canonical_url,
    record.application_url,
    ...record.sources.flatMap((s) => [s.url, s.external_id]),
  ].filter((v): v is string => typeof v === 'string' && v !== '');
  const mentions = (value: unknown) =>
    typeof value === 'string' && hidden.some((h) => value.includes(h));
  return {
    ...record,
    canonical_url: null,
    application_url: null,
    sources: record.sources.map((s) => ({ source: s.source }) as Opportunity['sources'][number]),
    evidence: record.evidence.filter((e) => !mentions(e.value) && !mentions(e.excerpt)),
  };
}
