import type { BillingSubject, Meter } from '../billing/meter';
import { newCostMillicents } from '../billing/period-deliveries';
import type { FacetBucket, FacetDimension } from '../domain/facets';
import type { ParsedRequest } from '../domain/filters';
import { searchCall } from '../search/client';
import { excludingIds } from '../search/exclusions';
import { buildFilterQuery } from '../search/query-builder';
import type { AppDeps } from './context';
import { facetCounts } from './facets';
import { countMatching } from './opportunity-search';

/** The figures of a count envelope (decisions 4 and 11), meta aside. */
export interface CountFigures {
  count: number;
  groups?: FacetBucket[];
  other_count?: number;
  new_count?: number;
  new_cost_millicents?: number;
}

/**
 * count, with the facets of group_by and the new_count of include=new_count (decisions 11). All
 * free: reads only. new_count is the count of the same query minus every id delivered to the
 * account this period (chunked terms, exact at any number of deliveries).
 */
export async function countFigures(
  deps: AppDeps,
  meter: Meter,
  subject: BillingSubject,
  request: ParsedRequest,
): Promise<CountFigures> {
  const { filter, options } = request;
  const query = buildFilterQuery(filter, deps.taxonomy);
  const [base, fresh] = await Promise.all([
    options.groupBy
      ? facetCounts(deps, query, options.groupBy as FacetDimension[], options.groupLimit)
      : countMatching(deps, filter).then((count) => ({ count })),
    options.includeNewCount ? newCount(deps, meter, subject, request) : undefined,
  ]);
  return { ...base, ...fresh };
}

async function newCount(
  deps: AppDeps,
  meter: Meter,
  subject: BillingSubject,
  request: ParsedRequest,
): Promise<{ new_count: number; new_cost_millicents: number }> {
  const state = await meter.periodDeliveries(subject);
  const query = excludingIds(buildFilterQuery(request.filter, deps.taxonomy), state.ids);
  const res = await searchCall(() =>
    deps.search.count({ index: deps.alias, body: { query } as never }),
  );
  const count = (res.body as { count: number }).count;
  return { new_count: count, new_cost_millicents: newCostMillicents(count, state) };
}
