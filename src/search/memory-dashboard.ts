import {
  bucketStart,
  exactQuartiles,
  type BucketCount,
  type HistogramRequest,
  type RateStatsEntry,
} from '../domain/aggregates';
import type { OpportunityDocument } from './documents';
import type { AggregateQuery, AggregateResult } from './opportunity-index';

// Histograms and rate statistics of contract §10.4, §10.5 in process, over the matching documents: what
// search/dashboard-aggs.ts asks OpenSearch, computed directly (percentiles always exact).

function histogram(docs: readonly OpportunityDocument[], q: HistogramRequest): BucketCount[] {
  const counts = new Map<number, number>();
  for (const doc of docs) {
    // `published` is the freshness time (published_at, else first_seen), as indexed.
    const at = new Date(q.field === 'published' ? doc.freshness : doc.first_seen).getTime();
    const start = bucketStart(at, q.interval);
    counts.set(start, (counts.get(start) ?? 0) + 1);
  }
  return [...counts].map(([start, count]) => ({ start, count })).sort((a, b) => a.start - b.start);
}

function rateStats(docs: readonly OpportunityDocument[]): RateStatsEntry[] {
  const groups = new Map<string, { unit: string; currency: string; values: number[] }>();
  for (const doc of docs) {
    if (doc.rate_unit === null || doc.rate_mid === null || doc.currency === null) continue;
    const currency = doc.currency.toUpperCase();
    const key = `${doc.rate_unit}\u0000${currency}`;
    const group = groups.get(key) ?? { unit: doc.rate_unit, currency, values: [] };
    group.values.push(doc.rate_mid);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ unit, currency, values }) => {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    const dist = [...counts];
    return {
      unit,
      currency,
      count: values.length,
      min: values.reduce((a, b) => Math.min(a, b)),
      max: values.reduce((a, b) => Math.max(a, b)),
      ...exactQuartiles(dist),
    };
  });
}

export function memoryAggregates(
  docs: readonly OpportunityDocument[],
  query: AggregateQuery,
): AggregateResult {
  return {
    count: docs.length,
    ...(query.histogram ? { histogram: histogram(docs, query.histogram) } : {}),
    ...(query.rateStats ? { rateStats: rateStats(docs) } : {}),
  };
}
