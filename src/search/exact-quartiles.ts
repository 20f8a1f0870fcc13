import type { RateStatsEntry } from '../domain/aggregates';
import type { Json } from './facets';

// contract §10.5: the percentiles of a rate distribution within 5 % of the exact value on ANY set.
// The TDigest the engine answers with for a distribution of more than EXACT_VALUES distinct values
// (dashboard-aggs.ts) is close in rank but not in value: where the values have a gap at a quartile
// (a cluster of rates around 100 and another around 10,000), interpolating between the two order
// statistics that straddle it gives a value the digest does not know (42 % off in a black-box
// audit). So such an entry is made exact from the engine in two more requests, with the digest's
// value as the pivot of each quartile:
// 1. one size-0 search counts the values below each pivot: the pivot's exact rank;
// 2. one multi-search reads each order statistic the quartile needs (the one at floor(h) and the
//    next) as ONE sorted hit, from the pivot upward or downward: the digest's rank error is what
//    `from` skips, far below the engine's 10,000 window. A statistic past the window keeps the
//    digest's value for its quartile (never seen: it would take a digest off by 10,000 ranks).

/** The quartiles as the entry names them, with their percent. */
const QUARTILES = [
  ['p25', 25],
  ['median', 50],
  ['p75', 75],
] as const;

/** The engine's default index.max_result_window: `from` + `size` of one search stays within it. */
const MAX_WINDOW = 10_000;

/** One order statistic to read: its 0-based rank among the entry's values, and its pivot. */
interface Needed {
  quartile: (typeof QUARTILES)[number][0];
  rank: number;
  pivot: number;
}

/** What the refinement asks the engine, in two steps; null reads mean "keep the digest's value". */
export interface QuartileRefinement {
  /** Step 1: a size-0 search whose filter aggregations count the values below each pivot. */
  belowCounts: Json;
  /** Step 2, given step 1's aggregations: one search per needed statistic (an msearch body). */
  statisticSearches(aggregations: Json): Json[];
  /** The entry with exact quartiles, from step 2's responses (in the order of the searches). */
  refined(responses: readonly Json[]): RateStatsEntry;
}

/**
 * The refinement of one (unit, currency) entry whose quartiles came from the digest. `where` is the
 * count's query; `unit` and `currencyKey` the entry's indexed values (the currency as indexed).
 */
export function quartileRefinement(
  where: Json,
  unit: string,
  currencyKey: string,
  entry: RateStatsEntry,
): QuartileRefinement {
  const base = [where, { term: { rate_unit: unit } }, { term: { currency: currencyKey } }];
  const pivots = QUARTILES.map(([quartile]) => [quartile, entry[quartile]] as const).filter(
    (p): p is readonly [Needed['quartile'], number] => p[1] !== null,
  );
  const needed: Needed[] = [];
  for (const [quartile, percent] of QUARTILES) {
    const pivot = entry[quartile];
    if (pivot === null || entry.count === 0) continue;
    const h = ((entry.count - 1) * percent) / 100;
    const lo = Math.floor(h);
    needed.push({ quartile, rank: lo, pivot });
    if (h > lo && lo + 1 < entry.count) needed.push({ quartile, rank: lo + 1, pivot });
  }
  let asked: { need: Needed; search: Json }[] = [];

  return {
    belowCounts: {
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: base } },
      aggs: Object.fromEntries(
        pivots.map(([quartile, pivot]) => [
          quartile,
          { filter: { range: { rate_mid: { lt: pivot } } } },
        ]),
      ),
    },
    statisticSearches(aggregations) {
      const below = (quartile: string) =>
        (aggregations[quartile] as { doc_count?: number } | undefined)?.doc_count;
      asked = [];
      for (const need of needed) {
        const under = below(need.quartile);
        if (under === undefined) continue;
        // The values below the pivot are ranks 0 .. under-1; the pivot's side is read sorted away
        // from it, so `from` is the distance in ranks between the pivot and the statistic.
        const upward = need.rank >= under;
        const from = upward ? need.rank - under : under - 1 - need.rank;
        if (from + 1 > MAX_WINDOW) continue;
        asked.push({
          need,
          search: {
            size: 1,
            from,
            _source: false,
            track_total_hits: false,
            query: {
              bool: {
                filter: [
                  ...base,
                  { range: { rate_mid: upward ? { gte: need.pivot } : { lt: need.pivot } } },
                ],
              },
            },
            sort: [{ rate_mid: upward ? 'asc' : 'desc' }],
          },
        });
      }
      return asked.map((a) => a.search);
    },
    refined(responses) {
      const at = new Map<string, number>();
      responses.forEach((response, i) => {
        const hit = (response as { hits?: { hits?: { sort?: unknown[] }[] } }).hits?.hits?.[0];
        const value = hit?.sort?.[0];
        const need = asked[i]?.need;
        if (need && typeof value === 'number') at.set(`${need.quartile} ${need.rank}`, value);
      });
      const exact = { ...entry };
      for (const [quartile, percent] of QUARTILES) {
        if (entry[quartile] === null) continue;
        const h = ((entry.count - 1) * percent) / 100;
        const lo = Math.floor(h);
        const low = at.get(`${quartile} ${lo}`);
        const high = h > lo && lo + 1 < entry.count ? at.get(`${quartile} ${lo + 1}`) : low;
        // Both statistics read, or the digest's value stays.
        if (low !== undefined && high !== undefined)
          exact[quartile] = low + (h - lo) * (high - low);
      }
      return exact;
    },
  };
}
