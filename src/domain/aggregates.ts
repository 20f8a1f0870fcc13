import { invalidFilter } from './errors';
import { utcMs } from './utc-times';

// Dashboards (contract §10.4, §10.5): the histogram and rate-statistics options of a count, and the pure
// rules both indexes share: UTC calendar buckets (weeks start on Monday), the gap filling between
// the first and last non-empty bucket, the 400-bucket bound, the exact percentile, the order of
// the statistics entries and the MIN_AGGREGATE_COUNT suppression.

export const HISTOGRAM_FIELDS = ['published', 'first_seen'] as const;
export type HistogramField = (typeof HISTOGRAM_FIELDS)[number];
export const HISTOGRAM_INTERVALS = ['day', 'week', 'month'] as const;
export type HistogramInterval = (typeof HISTOGRAM_INTERVALS)[number];
export const STATS_NAMES = ['rate'] as const;
export type StatsName = (typeof STATS_NAMES)[number];

/** contract §10.4: more buckets than this → 400 invalid_filter. */
export const MAX_HISTOGRAM_BUCKETS = 400;

export interface HistogramRequest {
  field: HistogramField;
  interval: HistogramInterval;
}

/** A non-empty bucket as an index reports it: its start in epoch milliseconds (UTC). */
export interface BucketCount {
  start: number;
  count: number;
}

export interface HistogramBucket {
  /** The bucket's first instant, ISO 8601 UTC. */
  start: string;
  count: number;
}

/** One (unit, currency) entry of stats=rate; statistics null when suppressed. */
export interface RateStatsEntry {
  unit: string;
  currency: string;
  count: number;
  min: number | null;
  max: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
}

const DAY_MS = 86_400_000;

/** The start of the UTC bucket holding `ms`: midnight, the Monday of its week, the 1st of its month. */
export function bucketStart(ms: number, interval: HistogramInterval): number {
  const d = new Date(ms);
  const midnight = utcMs(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  switch (interval) {
    case 'day':
      return midnight;
    case 'week':
      // getUTCDay: Sunday 0 … Saturday 6; Monday starts the week (ISO 8601).
      return midnight - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    case 'month':
      return utcMs(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucketStart(start: number, interval: HistogramInterval): number {
  if (interval === 'day') return start + DAY_MS;
  if (interval === 'week') return start + 7 * DAY_MS;
  const d = new Date(start);
  return utcMs(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Buckets from the one holding `first` to the one holding `last`, both included. */
export function bucketSpan(first: number, last: number, interval: HistogramInterval): number {
  const from = bucketStart(first, interval);
  const to = bucketStart(last, interval);
  if (interval === 'month') {
    const a = new Date(from);
    const b = new Date(to);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
  }
  return Math.round((to - from) / (interval === 'day' ? DAY_MS : 7 * DAY_MS)) + 1;
}

/** contract §10.4: 400 invalid_filter; `buckets` when known. */
export function tooManyBuckets(buckets?: number) {
  const amount = buckets === undefined ? `more than ${MAX_HISTOGRAM_BUCKETS}` : String(buckets);
  return invalidFilter(
    'interval',
    'out_of_range',
    `The histogram would have ${amount} buckets; at most ${MAX_HISTOGRAM_BUCKETS} are served: choose a longer interval or narrow the dates (fresh_after, first_seen_after, published_after).`,
  );
}

/**
 * contract §10.4: the histogram from its non-empty buckets (any order, starts already at bucket
 * boundaries): ascending, every empty bucket between the first and the last included; more than
 * MAX_HISTOGRAM_BUCKETS → 400 invalid_filter. Checked before anything is built.
 */
export function fillHistogram(
  nonEmpty: readonly BucketCount[],
  interval: HistogramInterval,
): HistogramBucket[] {
  const sorted = nonEmpty.filter((b) => b.count > 0).sort((a, b) => a.start - b.start);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (!first || !last) return [];
  const span = bucketSpan(first.start, last.start, interval);
  if (span > MAX_HISTOGRAM_BUCKETS) throw tooManyBuckets(span);
  const counts = new Map(sorted.map((b) => [b.start, b.count]));
  const out: HistogramBucket[] = [];
  for (let s = first.start; s <= last.start; s = nextBucketStart(s, interval)) {
    out.push({ start: new Date(s).toISOString(), count: counts.get(s) ?? 0 });
  }
  return out;
}

/**
 * A record's rate value (contract §10.5): the midpoint of min and max, or the one bound given.
 * Halved before they are added: the import takes any finite rate, and (min + max) / 2 of two past
 * half the largest double was Infinity, which the index stores as no value, so the record was in
 * its entry's count and missing from its min, max and percentiles. Halving is exact, so the sum
 * is the one (min + max) / 2 gives wherever that is finite.
 */
export function rateMidpoint(min: number | null, max: number | null): number | null {
  if (min === null && max === null) return null;
  return (min ?? max ?? 0) / 2 + (max ?? min ?? 0) / 2;
}

/** Distinct values with how many records have each. */
export type ValueCounts = ReadonlyArray<readonly [value: number, count: number]>;

/**
 * The exact percentile `p` (0-100) of a distribution, by linear interpolation between the closest
 * ranks (the "R-7" definition: numpy's default, PostgreSQL's percentile_cont).
 */
export function exactPercentile(values: ValueCounts, p: number): number | null {
  return percentileOf(sortedDistribution(values), p);
}

/** p25, median and p75 of one distribution, sorted once. */
export function exactQuartiles(
  values: ValueCounts,
): Pick<RateStatsEntry, 'p25' | 'median' | 'p75'> {
  const sorted = sortedDistribution(values);
  return {
    p25: percentileOf(sorted, 25),
    median: percentileOf(sorted, 50),
    p75: percentileOf(sorted, 75),
  };
}

interface SortedDistribution {
  sorted: ValueCounts;
  n: number;
}

function sortedDistribution(values: ValueCounts): SortedDistribution {
  const sorted = [...values].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  return { sorted, n: sorted.reduce((sum, [, c]) => sum + c, 0) };
}

function percentileOf({ sorted, n }: SortedDistribution, p: number): number | null {
  if (n === 0) return null;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const at = (rank: number): number => {
    let seen = 0;
    for (const [value, count] of sorted) {
      seen += count;
      if (rank < seen) return value;
    }
    return sorted[sorted.length - 1]?.[0] ?? 0;
  };
  const low = at(lo);
  const high = at(Math.min(lo + 1, n - 1));
  return low + (h - lo) * (high - low);
}

/** contract §10.5: count descending, then unit, then currency (code-unit order). */
export function compareRateStats(a: RateStatsEntry, b: RateStatsEntry): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.unit !== b.unit) return a.unit < b.unit ? -1 : 1;
  return a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0;
}

/** contract §10.6: an entry drawn from fewer than `minCount` records keeps its count, not its statistics. */
export function suppressSmall(entry: RateStatsEntry, minCount: number): RateStatsEntry {
  if (entry.count >= minCount) return entry;
  return { ...entry, min: null, max: null, p25: null, median: null, p75: null };
}
