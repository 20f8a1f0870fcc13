import type { Filter } from '../domain/filters';
import type { ListEnvelope } from '../domain/envelopes';
import type { Opportunity, SparseOpportunity } from '../domain/record';

export type { CountEnvelope, DetailEnvelope, ListEnvelope } from '../domain/envelopes';

// Response envelopes of decisions 4. Built in one place so REST and MCP return the same shapes.

export function listEnvelope(
  records: SparseOpportunity[],
  nextCursor: string | null,
  limit: number,
  requestId: string,
  appliedFilters: Filter,
): ListEnvelope {
  return {
    data: records,
    // decisions 3: has_more is true exactly when next_cursor is not null.
    pagination: {
      returned: records.length,
      next_cursor: nextCursor,
      has_more: nextCursor !== null,
      limit,
    },
    meta: { request_id: requestId, applied_filters: appliedFilters },
  };
}

/** decisions 5: the anonymous preview shows where a record came from, not its source details. */
export function redactForPreview(record: Opportunity): Opportunity {
  return {
    ...record,
    sources: record.sources.map((s) => ({ source: s.source }) as Opportunity['sources'][number]),
  };
}
