import type { Client } from '@opensearch-project/opensearch';
import { parseRestQuery } from '../../src/domain/filters';
import type { Taxonomy } from '../../src/domain/taxonomy';
import { dashboardAggs } from '../../src/search/dashboard-aggs';
import { aggregationBody } from '../../src/search/facets';
import { buildFilterQuery } from '../../src/search/query-builder';

// The dashboard benchmark workloads: a weekly histogram over a year and stats=rate over a family,
// with and without other filters. Each API query has its raw twin: the same size-0 search with
// the same aggregations (and the exact total the API's count needs), sent straight to OpenSearch.

export interface DashboardWorkload {
  name: string;
  /** API query strings of /v1/opportunities/count, rotated per request. */
  queries: string[];
  /** The equivalent _search bodies, in the same order. */
  raw: object[];
}

/** The newest freshness in the index: the year of the histogram ends there. */
export async function newestFreshness(client: Client, alias: string): Promise<Date> {
  const res = await client.search({
    index: alias,
    body: { size: 0, aggs: { newest: { max: { field: 'freshness' } } } } as never,
  });
  const value = (res.body.aggregations as { newest?: { value?: number } } | undefined)?.newest
    ?.value;
  return new Date(value ?? Date.now());
}

export function dashboardWorkloads(
  taxonomy: Taxonomy,
  families: readonly string[],
  newest: Date,
): DashboardWorkload[] {
  const yearAgo = new Date(newest.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
  const countries = ['US', 'GB', 'IN', 'CA'];
  const build = (name: string, queries: Record<string, string>[]): DashboardWorkload => ({
    name,
    queries: queries.map((q) => new URLSearchParams(q).toString()),
    raw: queries.map((q) => {
      const parsed = parseRestQuery('count', q, { taxonomy });
      const histogram =
        parsed.options.histogram && parsed.options.interval
          ? { field: parsed.options.histogram, interval: parsed.options.interval }
          : undefined;
      return aggregationBody(
        buildFilterQuery(parsed.filter, taxonomy),
        dashboardAggs({ histogram, rateStats: parsed.options.stats === 'rate' }),
        true,
      );
    }),
  });
  const weekly = { fresh_after: yearAgo, histogram: 'published', interval: 'week' };
  return [
    build('dashboard: weekly histogram over a year', [weekly]),
    build(
      'dashboard: weekly histogram over a year, family x country',
      families.flatMap((f, i) => [
        { ...weekly, job_family: f, country: countries[i % countries.length] as string },
      ]),
    ),
    build(
      'dashboard: stats=rate over a family',
      families.map((f) => ({ job_family: f, stats: 'rate' })),
    ),
    build(
      'dashboard: stats=rate over a family, country x remote',
      families.map((f, i) => ({
        job_family: f,
        country: countries[i % countries.length] as string,
        remote: 'true',
        stats: 'rate',
      })),
    ),
  ];
}
