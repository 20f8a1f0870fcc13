import { quartileRefinement } from '../../src/search/exact-quartiles';

// The two requests that make a digest's quartiles exact (search/exact-quartiles.ts), against an
// in-test "engine" that answers them from a sorted array.

const VALUES = [
  ...Array.from({ length: 375 }, (_, i) => 100 + i),
  ...Array.from({ length: 1125 }, (_, i) => 10_000 + i),
];
const SORTED = [...VALUES].sort((a, b) => a - b);

/** R-7, as contract §10.5 defines the percentiles. */
function exact(p: number): number {
  const h = (SORTED.length - 1) * p;
  const lo = Math.floor(h);
  const a = SORTED[lo] as number;
  return a + (h - lo) * ((SORTED[lo + 1] ?? a) - a);
}

type Search = {
  from: number;
  query: { bool: { filter: { range?: { rate_mid: { gte?: number; lt?: number } } }[] } };
  sort: { rate_mid: 'asc' | 'desc' }[];
};

/** What the engine would answer to one statistic search over SORTED. */
function answer(search: Search): Record<string, unknown> {
  const range = search.query.bool.filter.find((f) => f.range)?.range?.rate_mid ?? {};
  const side = SORTED.filter((v) =>
    range.gte !== undefined ? v >= range.gte : v < (range.lt as number),
  );
  const ordered = search.sort[0]?.rate_mid === 'asc' ? side : [...side].reverse();
  const value = ordered[search.from];
  return { hits: { hits: value === undefined ? [] : [{ sort: [value] }] } };
}

function refineFrom(digest: { p25: number; median: number; p75: number }) {
  const entry = {
    unit: 'year',
    currency: 'CHF',
    count: SORTED.length,
    min: SORTED[0] as number,
    max: SORTED[SORTED.length - 1] as number,
    ...digest,
  };
  const refinement = quartileRefinement({ match_all: {} }, 'year', 'chf', entry);
  const below = refinement.belowCounts as { aggs: Record<string, { filter: object }> };
  const counts = Object.fromEntries(
    Object.entries(digest).map(([q, pivot]) => [
      q,
      { doc_count: SORTED.filter((v) => v < pivot).length },
    ]),
  );
  expect(Object.keys(below.aggs).sort()).toEqual(['median', 'p25', 'p75']);
  const searches = refinement.statisticSearches(counts) as Search[];
  return { refined: refinement.refined(searches.map(answer)), searches };
}

it('interpolates across a gap whatever side of it the digest put its pivot', () => {
  // p25's rank (374.75) falls between the clusters; the digest answered near one of them.
  for (const p25 of [150, 9_000, 10_400]) {
    const { refined } = refineFrom({ p25, median: 10_300, p75: 10_600 });
    expect(refined.p25).toBeCloseTo(exact(0.25), 9);
    expect(refined.median).toBeCloseTo(exact(0.5), 9);
    expect(refined.p75).toBeCloseTo(exact(0.75), 9);
  }
});

it('reads each statistic as one hit, skipping only the pivot rank error', () => {
  const { searches } = refineFrom({ p25: 10_000, median: 10_374, p75: 10_750 });
  expect(searches.every((s) => s.from < 10)).toBe(true);
  // floor(h) and the next, for each quartile with a fractional rank.
  expect(searches).toHaveLength(6);
});

it('keeps the digest value of a quartile whose statistic lies past the engine window', () => {
  const many = quartileRefinement({ match_all: {} }, 'year', 'chf', {
    unit: 'year',
    currency: 'CHF',
    count: 100_000,
    min: 0,
    max: 1,
    p25: 0.25,
    median: 0.5,
    p75: 0.75,
  });
  // The pivot of every quartile is at rank 0: each statistic is more than 10,000 ranks away.
  const searches = many.statisticSearches({
    p25: { doc_count: 0 },
    median: { doc_count: 0 },
    p75: { doc_count: 0 },
  });
  expect(searches).toEqual([]);
  expect(many.refined([])).toMatchObject({ p25: 0.25, median: 0.5, p75: 0.75 });
});
