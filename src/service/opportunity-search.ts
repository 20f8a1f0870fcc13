import type { DeliveredRecords } from '../domain/delivered-records';
import { malformedCursor } from '../domain/errors';
import { filterDigest, type ParsedRequest } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import type { CursorCodec } from '../search/cursor';
import type { OpportunityIndex } from '../search/opportunity-index';
import { startPosition, type SearchAfter } from '../search/query-builder';

export interface Page {
  records: Opportunity[];
  nextCursor: string | null;
  /** Each record's keyset position, so a page cut short can resume after any of its records. */
  positions: SearchAfter[];
  /** Where this page started: the cursor's position, or the start of the order. */
  start: SearchAfter;
  /** The filter digest the page's cursors are bound to. */
  digest: string;
}

/**
 * One keyset page of a request (contract §8.2): the cursor is checked against the filters and the
 * account before the index is asked, and the next cursor carries the last returned record's
 * position, bound to both. Anonymous pages (preview, accountId null) have no cursor.
 */
export async function searchPage(
  index: OpportunityIndex,
  cursor: CursorCodec,
  request: ParsedRequest,
  accountId: string | null,
  options: { liveOnly?: boolean; exclude?: DeliveredRecords } = {},
): Promise<Page> {
  const digest = filterDigest(request.filter);
  const searchAfter: SearchAfter | undefined =
    request.cursor !== undefined && accountId !== null
      ? await cursor.decode(request.cursor, { filterDigest: digest, accountId })
      : undefined;
  // The digest binds the sort (contract §7.5); a position of the other order's shape is forged.
  if (searchAfter && searchAfter.length !== startPosition(request.filter.sort).length) {
    throw malformedCursor();
  }
  const hits = await index.page({
    filter: request.filter,
    limit: request.limit,
    searchAfter,
    liveOnly: options.liveOnly,
    exclude: options.exclude,
  });
  const last = hits.positions[hits.positions.length - 1];
  const nextCursor =
    hits.hasMore && accountId !== null && last
      ? await cursor.encode({ filterDigest: digest, accountId, position: last })
      : null;
  return {
    records: hits.records,
    nextCursor,
    positions: hits.positions,
    start: searchAfter ?? startPosition(request.filter.sort),
    digest,
  };
}
