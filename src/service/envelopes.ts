import type { Filter } from '../domain/filters';
import type { Opportunity } from '../domain/record';

// Response envelopes of decisions 4. Built in one place so REST and MCP return the same shapes.

export interface ListEnvelope {
  data: Opportunity[];
  pagination: { returned: number; next_cursor: string | null; has_more: boolean; limit: number };
  meta: { request_id: string; applied_filters: Filter };
}

export interface CountEnvelope {
  count: number;
  meta: { request_id: string; applied_filters: Filter };
}

export interface DetailEnvelope {
  data: Opportunity;
  meta: { request_id: string };
}

export function listEnvelope(
  records: Opportunity[],
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
