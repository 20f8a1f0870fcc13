import { createHash } from 'node:crypto';
import { indexLowerCase } from '../index-case';
import { PARAMS_BY_NAME } from './catalog';
import type { Filter } from './types';

// The cursor binds "a digest of the normalized filters" (contract §8.3). Canonical form: object keys
// sorted, list values sorted (a list is a set: OR within the parameter, so level=senior,staff and
// level=staff,senior are the same query), absent parameters omitted. The limit is not part of it.

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical).sort();
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** SHA-256 (base64url) of the canonical JSON of the normalized filters. */
export function filterDigest(filter: Filter): string {
  // Defaults stated aloud are the same list as no parameter, so the same cursors: sort=freshness
  // (the default order) and unseen_only=false.
  const { sort, unseen_only, ...rest } = filter;
  // A text filter matches case-insensitively: city=Boston and city=BOSTON are one query.
  const caseless = Object.entries(rest).map(([name, value]) => [
    name,
    PARAMS_BY_NAME.get(name)?.kind === 'text' && typeof value === 'string'
      ? indexLowerCase(value)
      : value,
  ]);
  const bound = {
    ...Object.fromEntries(caseless),
    ...(sort === 'relevance' ? { sort } : {}),
    ...(unseen_only === true ? { unseen_only } : {}),
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(bound)))
    .digest('base64url');
}
