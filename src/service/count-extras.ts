import type { BillingSubject, Metering } from '../billing/metering';
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
}

/**
 * count, with the facets of group_by and the new_count of include=new_count (decisions 11). All
 * free: reads only. new_count is the count of the same query minus every id delivered to the
 * account this period.
 */
export async function countFigures(
  index: OpportunityIndex,
  meter: Metering,
  subject: BillingSubject,
  request: ParsedRequest,
): Promise<CountFigures> {
  const { filter, options } = request;
  const [base, fresh] = await Promise.all([
    options.groupBy
      ? index.facets(filter, options.groupBy as FacetDimension[], options.groupLimit)
      : index.count(filter).then((count) => ({ count })),
    options.includeNewCount ? newCount(index, meter, subject, request) : undefined,
  ]);
  return { ...base, ...fresh };
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
