import type { BillingSubject, Metering } from '../billing/metering';
import {
  compareRateStats,
  fillHistogram,
  suppressSmall,
  type HistogramBucket,
  type RateStatsEntry,
} from '../domain/aggregates';
import { newCostMillicents } from '../billing/period-deliveries';
import type { FacetBucket, FacetDimension } from '../domain/facets';
import type { ParsedRequest } from '../domain/filters';
import type { OpportunityIndex } from '../search/opportunity-index';

/** The figures of a count envelope (decisions 4 and 11), meta aside. */
export interface CountFigures {
  count: number;
  groups?: FacetBucket[];
  other_count?: number;
  new_count?: number;
  new_cost_millicents?: number;
  histogram?: HistogramBucket[];
  rate_stats?: RateStatsEntry[];
}

/**
 * count, with the facets of group_by and the new_count of include=new_count (decisions 11), the
 * histogram and rate statistics (decisions 13). All free: reads only. new_count is the count of
 * the same query minus every id delivered to the account this period. Every part runs over the
 * same filter, so each combines with every filter and with the others.
 */
export async function countFigures(
  index: OpportunityIndex,
  meter: Metering,
  subject: BillingSubject,
  request: ParsedRequest,
  minAggregateCount = 1,
): Promise<CountFigures> {
  const { filter, options } = request;
  const [base, fresh, dashboard] = await Promise.all([
    options.groupBy
      ? index.facets(filter, options.groupBy as FacetDimension[], options.groupLimit)
      : index.count(filter).then((count) => ({ count })),
    options.includeNewCount ? newCount(index, meter, subject, request) : undefined,
    dashboardFigures(index, request, minAggregateCount),
  ]);
  return { ...base, ...fresh, ...dashboard };
}

/** decisions 13: the filled, bounded histogram and the ordered, suppressed rate statistics. */
async function dashboardFigures(
  index: OpportunityIndex,
  { filter, options }: ParsedRequest,
  minAggregateCount: number,
): Promise<Pick<CountFigures, 'histogram' | 'rate_stats'> | undefined> {
  const histogram =
    options.histogram && options.interval
      ? { field: options.histogram, interval: options.interval }
      : undefined;
  const rateStats = options.stats === 'rate';
  if (!histogram && !rateStats) return undefined;
  const raw = await index.aggregates(filter, { histogram, rateStats });
  return {
    ...(histogram ? { histogram: fillHistogram(raw.histogram ?? [], histogram.interval) } : {}),
    ...(rateStats
      ? {
          rate_stats: (raw.rateStats ?? [])
            .filter((e) => e.count > 0)
            .sort(compareRateStats)
            .map((e) => suppressSmall(e, minAggregateCount)),
        }
      : {}),
  };
}

async function newCount(
  index: OpportunityIndex,
  meter: Metering,
  subject: BillingSubject,
  request: ParsedRequest,
): Promise<{ new_count: number; new_cost_millicents: number }> {
  const state = await meter.periodDeliveries(subject);
  const count = await index.newCount(request.filter, state.ids);
  return { new_count: count, new_cost_millicents: newCostMillicents(count, state) };
}
