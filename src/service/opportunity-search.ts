import { filterDigest, type Filter, type ParsedRequest } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import { searchCall } from '../search/client';
import { buildCountBody, buildListSearchBody, type SearchAfter } from '../search/query-builder';
import type { AppDeps } from './context';

export interface Page {
  records: Opportunity[];
  nextCursor: string | null;
}

interface Hit {
  _source?: { record?: Opportunity };
  sort?: unknown[];
}

/**
 * One keyset page (decisions 3): search_after on (freshness desc, id asc) with total hits off, so
 * the index-sorted segments can stop early. One extra hit tells whether another page exists; the
 * cursor carries the last returned hit's sort values, bound to the filters and the account.
 */
export async function searchPage(
  deps: AppDeps,
  request: ParsedRequest,
  accountId: string | null,
  options: { liveOnly?: boolean } = {},
): Promise<Page> {
  const digest = filterDigest(request.filter);
  const searchAfter: SearchAfter | undefined =
    request.cursor !== undefined && accountId !== null
      ? await deps.cursor.decode(request.cursor, { filterDigest: digest, accountId })
      : undefined;
  const body = buildListSearchBody(request.filter, deps.taxonomy, {
    size: request.limit + 1,
    searchAfter,
    liveOnly: options.liveOnly,
  });
  const res = await searchCall(() => deps.search.search({ index: deps.alias, body }));
  const hits = res.body.hits.hits as Hit[];
  const page = hits.slice(0, request.limit);
  const records = page.map((h) => h._source?.record).filter((r): r is Opportunity => !!r);
  const last = page[page.length - 1];
  const hasMore = hits.length > request.limit && accountId !== null;
  const nextCursor =
    hasMore && last?.sort
      ? await deps.cursor.encode({
          filterDigest: digest,
          accountId,
          position: [Number(last.sort[0]), String(last.sort[1])],
        })
      : null;
  return { records, nextCursor };
}

export async function countMatching(deps: AppDeps, filter: Filter): Promise<number> {
  const body = buildCountBody(filter, deps.taxonomy);
  const res = await searchCall(() => deps.search.count({ index: deps.alias, body }));
  return res.body.count;
}
