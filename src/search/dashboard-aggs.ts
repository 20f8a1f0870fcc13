import {
  exactQuartiles,
  tooManyBuckets,
  type BucketCount,
  type HistogramField,
  type RateStatsEntry,
} from '../domain/aggregates';
import { ApiError } from '../domain/errors';
import { RATE_UNITS } from '../domain/vocab';
import { OPEN_DIMENSION_SIZE, type Json } from './facets';
import type { AggregateQuery } from './opportunity-index';

// Histograms and rate statistics of contract §10.4, §10.5 as OpenSearch aggregations, and how their answers
// are read. Pure: search/opensearch-index.ts runs the one size-0 search.

/** The indexed date field of each histogram field: `published` is the freshness time. */
export const HISTOGRAM_INDEX_FIELD: Record<HistogramField, string> = {
  published: 'freshness',
  first_seen: 'first_seen',
};

/**
 * Distinct rate values read per (unit, currency) to compute the percentiles exactly. Rates are
 * round numbers (500, 550, 600 a day), so a family's distinct midpoints are far fewer than this
 * even at a million records; beyond it the TDigest percentiles are used.
 */
export const EXACT_VALUES = 1000;
/** TDigest compression of the approximate percentiles (the engine's default is 100). */
export const TDIGEST_COMPRESSION = 200;

/**
 * The aggregations of one dashboard count:
 * - `h`: a date_histogram in UTC (weeks start on Monday) with min_doc_count 1: only the non-empty
 *   buckets cross the wire; contract §10.4's empty buckets between them are filled by the service
 *   (domain/aggregates.ts), which also bounds their number.
 * - `r`: per rate_unit, per currency: `stats` (count, min, max: exact), `percentiles` (TDigest)
 *   and a `terms` on the value itself, whose buckets are the whole distribution when it holds at
 *   most EXACT_VALUES distinct values: then the percentiles are exact.
 */
export function dashboardAggs(query: AggregateQuery): Json {
  const aggs: Json = {};
  if (query.histogram) {
    aggs.h = {
      date_histogram: {
        field: HISTOGRAM_INDEX_FIELD[query.histogram.field],
        calendar_interval: query.histogram.interval,
        time_zone: 'UTC',
        min_doc_count: 1,
        order: { _key: 'asc' },
      },
    };
  }
  if (query.rateStats) {
    aggs.r = {
      terms: { field: 'rate_unit', size: RATE_UNITS.length },
      aggs: {
        c: {
          terms: { field: 'currency', size: OPEN_DIMENSION_SIZE },
          aggs: {
            s: { stats: { field: 'rate_mid' } },
            p: {
              percentiles: {
                field: 'rate_mid',
                percents: [25, 50, 75],
                tdigest: { compression: TDIGEST_COMPRESSION },
              },
            },
            v: { terms: { field: 'rate_mid', size: EXACT_VALUES } },
          },
        },
      },
    };
  }
  return aggs;
}

interface Bucket {
  key: unknown;
  doc_count: number;
  [agg: string]: unknown;
}
type Buckets = { buckets?: Bucket[]; sum_other_doc_count?: number } | undefined;

/** The histogram's non-empty buckets: bucket start (epoch ms, UTC) and count. */
export function readHistogram(agg: unknown): BucketCount[] {
  return ((agg as Buckets)?.buckets ?? [])
    .filter((b) => b.doc_count > 0)
    .map((b) => ({ start: Number(b.key), count: b.doc_count }));
}

/**
 * A (unit, currency) entry as the aggregation answered it; `approximate` when its quartiles are
 * the TDigest's (more than EXACT_VALUES distinct values), to be made exact (exact-quartiles.ts)
 * with the unit and the currency as indexed.
 */
export interface RateStatsRead {
  entry: RateStatsEntry;
  approximate: boolean;
  unitKey: string;
  currencyKey: string;
}

/** Every (unit, currency) entry, unordered and unsuppressed (the service does both). */
export function readRateStats(agg: unknown): RateStatsRead[] {
  const out: RateStatsRead[] = [];
  for (const unit of (agg as Buckets)?.buckets ?? []) {
    for (const cur of (unit.c as Buckets)?.buckets ?? []) {
      const stats = cur.s as { min: number | null; max: number | null };
      const tdigest = (cur.p as { values?: Record<string, number | null> }).values ?? {};
      const values = cur.v as Buckets;
      const exact =
        values?.sum_other_doc_count === 0
          ? (values.buckets ?? []).map((b) => [Number(b.key), b.doc_count] as const)
          : null;
      const quartiles = exact
        ? exactQuartiles(exact)
        : {
            p25: tdigest['25.0'] ?? null,
            median: tdigest['50.0'] ?? null,
            p75: tdigest['75.0'] ?? null,
          };
      out.push({
        entry: {
          unit: String(unit.key),
          // The currency field's lowercase normalizer: codes are shown upper-case (ISO 4217).
          currency: String(cur.key).toUpperCase(),
          count: cur.doc_count,
          min: stats.min,
          max: stats.max,
          ...quartiles,
        },
        approximate: exact === null,
        unitKey: String(unit.key),
        currencyKey: String(cur.key),
      });
    }
  }
  return out;
}

/**
 * A day histogram over a very long span can pass the engine's own bucket limit
 * (search.max_buckets) before the service sees it: that too is "too many buckets", the caller's.
 */
export function bucketLimitError(err: unknown): ApiError | null {
  const text = JSON.stringify(
    (err as { cause?: { meta?: { body?: unknown } } }).cause?.meta?.body ?? '',
  );
  return text.includes('too_many_buckets') ? tooManyBuckets() : null;
}
