import type { paths } from './schema';

// Compile-time checks of the generated query types, run by `tsc -p clients/typescript`
// in test/integration/typed-client.test.ts. Each @ts-expect-error must stay an error: if the
// document loosened a parameter back to a string, the directive would be unused and fail.

type ListQuery = NonNullable<paths['/v1/opportunities']['get']['parameters']['query']>;
type CountQuery = NonNullable<paths['/v1/opportunities/count']['get']['parameters']['query']>;

export const list: ListQuery = {
  limit: 3,
  max_new: 0,
  level: ['senior', 'staff'],
  pay_basis: ['hourly'],
  remote: true,
  country: 'US',
  published_after: '2026-01-31',
};
export const count: CountQuery = { group_by: ['level', 'country'], group_limit: 5 };

// @ts-expect-error limit is an integer, not text
export const limitAsText: ListQuery = { limit: '3' };
// @ts-expect-error level takes an array of levels, not a comma string
export const levelAsText: ListQuery = { level: 'senior,staff' };
// @ts-expect-error level values are an enum
export const unknownLevel: ListQuery = { level: ['ceo'] };
// @ts-expect-error remote is a boolean
export const remoteAsText: ListQuery = { remote: 'true' };
