import { ApiError } from '../../src/domain/errors';
import { Taxonomy } from '../../src/domain/taxonomy';
import type { TaxonomyNode } from '../../src/domain/taxonomy';

// A small taxonomy shared by the filter and query-builder unit tests:
// root → technology → data → data_engineering → data_engineer
//                         → analytics → analytics_engineer
//                   → software_engineering → backend → backend_engineer

const node = (
  id: string,
  parent_id: string | null,
  level: TaxonomyNode['level'],
): TaxonomyNode => ({ id, parent_id, level, label: id.replace(/_/g, ' ') });

export const taxonomy = new Taxonomy('test-1', [
  node('occupations', null, 'root'),
  node('technology', 'occupations', 'domain'),
  node('data', 'technology', 'family'),
  node('software_engineering', 'technology', 'family'),
  node('data_engineering', 'data', 'subfamily'),
  node('analytics', 'data', 'subfamily'),
  node('backend', 'software_engineering', 'subfamily'),
  node('data_engineer', 'data_engineering', 'class'),
  node('analytics_engineer', 'analytics', 'class'),
  node('backend_engineer', 'backend', 'class'),
]);

/** The ApiError a call throws (fails the test when it throws nothing or something else). */
export function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

/** status, code and details of an ApiError, for toEqual against a table row. */
export const summary = (err: ApiError) => ({
  status: err.status,
  code: err.code,
  parameter: err.details?.parameter,
  reason: err.details?.reason,
});
