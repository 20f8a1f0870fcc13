import { filterDigest, type Filter, type ParsedRequest } from '../domain/filters';
import type { Opportunity } from '../domain/record';
import { searchCall } from '../search/client';
import { buildCountBody, buildListSearchBody, type SearchAfter } from '../search/query-builder';
import type { ResultCache } from '../search/result-cache';
import type { PageHit } from '../search/search-cache';
import type { AppDeps } from './context';

export interface Page {
  records: Opportunity[];
  nextCursor: string | null;
  /** Each record's keyset position, so a page cut short can resume after any of its records. */
  positions: SearchAfter[];
  /** Where this page started: the cursor's position, or undefined on the first page. */
  start?: SearchAfter;
  /** The filter digest the page's cursors are bound to. */
  digest: string;
  /** Served from the search cache: someone asked for this page lately, likely this account. */
  fromCache: boolean;
}

const PAGE_FILTER_PATH = ['hits.hits._source.record', 'hits.hits.sort'];

/** Before every record: a freshness above any date, so search_after it starts at the top. */
export const START_POSITION: SearchAfter = [Number.MAX_SAFE_INTEGER, '0'];

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
  options: { liveOnly?: boolean; excludeIds?: readonly string[] } = {},
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
    excludeIds: options.excludeIds,
  });
  let loaded = false;
  const load = async (): Promise<Hit[]> => {
    loaded = true;
    // filter_path: only the records and their sort values cross the wire and get parsed (issue
    // 13: transport overhead); with no hits the engine then answers `{}`.
    const res = await searchCall(() =>
      deps.search.search({ index: deps.alias, body, filter_path: PAGE_FILTER_PATH }),
    );
    return ((res.body as { hits?: { hits?: Hit[] } }).hits?.hits ?? []) as Hit[];
  };
  // An unseen_only page carries the account's delivered ids (megabytes at 200,000 deliveries) and
  // changes with every delivery: caching it would only fill memory with single-use entries.
  const hits = options.excludeIds?.length
    ? await load()
    : ((await cachedSearch(deps, 'pages', body, load)) as Hit[]);
  const page = hits.filter((h) => h._source?.record).slice(0, request.limit);
  const records = page.map((h) => h._source?.record as Opportunity);
  const positions = page.map((h): SearchAfter => [Number(h.sort?.[0]), String(h.sort?.[1])]);
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
  return {
    records,
    nextCursor,
    positions,
    digest,
    fromCache: !loaded,
    ...(searchAfter ? { start: searchAfter } : {}),
  };
}

export async function countMatching(deps: AppDeps, filter: Filter): Promise<number> {
  const body = buildCountBody(filter, deps.taxonomy);
  return cachedSearch(deps, 'counts', body, async () => {
    const res = await searchCall(() => deps.search.count({ index: deps.alias, body }));
    return res.body.count;
  });
}

/** Through the generation-keyed cache when the process has one (search/search-cache.ts). */
function cachedSearch<K extends 'counts' | 'pages'>(
  deps: AppDeps,
  kind: K,
  body: object,
  load: () => Promise<SearchCacheValue<K>>,
): Promise<SearchCacheValue<K>> {
  const caches = deps.searchCache;
  if (!caches || caches.client !== deps.search) return load();
  const cache = caches[kind] as ResultCache<SearchCacheValue<K>>;
  return cache.get(JSON.stringify(body), load);
}

type SearchCacheValue<K extends 'counts' | 'pages'> = K extends 'counts' ? number : PageHit[];
