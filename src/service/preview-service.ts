import { parseRestQuery } from '../domain/filters';
import type { OpportunityIndex } from '../search/opportunity-index';
import type { Settings } from './context';
import { listEnvelope, type ListEnvelope } from './envelopes';
import { redactForPreview } from './preview-redaction';
import { searchPage } from './opportunity-search';

/**
 * The anonymous preview (contract §9): live records only, at most five, no paging,
 * source details redacted. It needs no account, so it spends and meters nothing.
 */
export async function previewOpportunities(
  deps: Pick<Settings, 'taxonomy' | 'cursor'>,
  index: OpportunityIndex,
  query: Record<string, unknown>,
  requestId: string,
): Promise<ListEnvelope> {
  const request = parseRestQuery('preview', query, { taxonomy: deps.taxonomy });
  const page = await searchPage(index, deps.cursor, request, null, { liveOnly: true });
  return listEnvelope(
    page.records.map(redactForPreview),
    null,
    request.limit,
    requestId,
    request.appliedFilters,
  );
}
