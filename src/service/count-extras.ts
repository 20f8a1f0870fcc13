import type { BillingSubject, Metering } from '../billing/metering';
import {
  compareRateStats,
  fillHistogram,
  suppressSmall,
  type HistogramBucket,
  type RateStatsEntry,
} from '../domain/aggregates';
import { newCostMillicents } from '../billing/period-deliveries';
import { deepFreeze } from './parsed-requests';
import type { FacetBucket, FacetDimension } from '../domain/facets';
import type { Filter, ParsedRequest } from '../domain/filters';
import type {
  AggregateQuery,
  AggregateResult,
  OpportunityIndex,
} from '../search/opportunity-index';

/** The figures of a count envelope (contract §4.2, §10), meta aside. */
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
 * count, with the facets of group_by and the new_count of include=new_count (contract §10.2), the
 * histogram and rate statistics (contract §10.4, §10.5). All free: reads only. new_count is the count of
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
  const dashboard = dashboardQuery(request);
  const [base, fresh, figures] = await Promise.all([
    options.groupBy
      ? index.facets(filter, options.groupBy as FacetDimension[], options.groupLimit)
      : // A dashboard's one search also carries the exact total: no separate count.
        dashboard
        ? undefined
        : index.count(filter).then((count) => ({ count })),
    options.includeNewCount ? newCount(index, meter, subject, request) : undefined,
    dashboard ? dashboardFigures(index, filter, dashboard, minAggregateCount) : undefined,
  ]);
  const count = base?.count ?? figures?.count ?? 0;
  return { count, ...base, ...fresh, ...figures?.extras };
}

function dashboardQuery({ options }: ParsedRequest): AggregateQuery | undefined {
  const histogram =
    options.histogram && options.interval
      ? { field: options.histogram, interval: options.interval }
      : undefined;
  const rateStats = options.stats === 'rate';
  return histogram || rateStats ? { histogram, rateStats } : undefined;
}

/** contract §10.4, §10.5: the filled, bounded histogram and the ordered, suppressed rate statistics. */
async function dashboardFigures(
  index: OpportunityIndex,
  filter: Filter,
  query: AggregateQuery,
  minAggregateCount: number,
): Promise<{ count: number; extras: DashboardExtras }> {
  const raw = await index.aggregates(filter, query);
  // A cached answer is the same object every time: its figures are built once.
  const built = `${query.histogram?.interval ?? ''} ${query.rateStats === true} ${minAggregateCount}`;
  let byQuery = builtExtras.get(raw);
  const kept = byQuery?.get(built);
  if (kept) return { count: raw.count, extras: kept };
  const extras = deepFreeze(buildExtras(raw, query, minAggregateCount));
  if (!byQuery) {
    byQuery = new Map();
    builtExtras.set(raw, byQuery);
  }
  byQuery.set(built, extras);
  return { count: raw.count, extras };
}

type DashboardExtras = Readonly<Pick<CountFigures, 'histogram' | 'rate_stats'>>;

/** The figures built from each raw answer, by what was asked; they go when the answer goes. */
const builtExtras = new WeakMap<AggregateResult, Map<string, DashboardExtras>>();

function buildExtras(
  raw: AggregateResult,
  query: AggregateQuery,
  minAggregateCount: number,
): DashboardExtras {
  const extras: Pick<CountFigures, 'histogram' | 'rate_stats'> = {};
  if (query.histogram) {
    extras.histogram = fillHistogram(raw.histogram ?? [], query.histogram.interval);
  }
  if (query.rateStats) {
    extras.rate_stats = (raw.rateStats ?? [])
      .filter((e) => e.count > 0)
      .sort(compareRateStats)
      .map((e) => suppressSmall(e, minAggregateCount));
  }
  return extras;
}

async function newCount(
  index: OpportunityIndex,
  meter: Metering,
  subject: BillingSubject,
  request: ParsedRequest,
): Promise<{ new_count: number; new_cost_millicents: number }> {
  const state = await meter.periodDeliveries(subject);
  const count = await index.newCount(request.filter, state.delivered);
  return { new_count: count, new_cost_millicents: newCostMillicents(count, state) };
}
