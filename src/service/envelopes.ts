import type { Filter } from '../domain/filters';
import type { ListEnvelope } from '../domain/envelopes';
import type { SparseOpportunity } from '../domain/record';

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
