import type { TextClause } from './keyword-clauses';

// The shapes of the OpenSearch queries that query-builder.ts writes and exclusions.ts extends,
// apart from both so that neither imports the other.

export type TermValue = string | number | boolean;
// Date bounds are ISO strings, rate bounds numbers: the two never mix in one range (this also
// keeps the shapes assignable to the OpenSearch client's DateRangeQuery / NumberRangeQuery).
export type RangeBounds<T extends string | number> = { gte?: T; lte?: T };
export type FilterClause =
  | { term: Record<string, TermValue> }
  | { terms: Record<string, string[]> }
  // The bitmap terms filter: record numbers in one base64 roaring bitmap (search/exclusions.ts).
  | { terms: { record_num: [string]; value_type: 'bitmap' } }
  // The numbers delivered since that bitmap was made, as plain values (search/exclusions.ts).
  | { terms: { record_num: number[] } }
  | { range: Record<string, RangeBounds<string> | RangeBounds<number>> }
  | TextClause;
export type FilterQuery =
  | { match_all: Record<string, never> }
  | { bool: { filter: FilterClause[]; must_not?: FilterClause[]; should?: TextClause[] } };
