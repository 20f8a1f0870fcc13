import { projection, sparseRecord } from '../domain/sparse-fields';
import type { Opportunity, SparseOpportunity } from '../domain/record';
import { Lru } from '../infra/lru';

// A list page's records as `fields` shapes them (contract §7.6), each sparse record made once per
// record object and projection and kept beside the record, as its texts are (record-text.ts,
// list-bytes.ts). Pages from the result cache hold the same record objects request after request,
// so an agent asking for the same fields again reuses the sparse records, their JSON, quoted text
// and bytes, instead of parsing the stored records and serializing the projection anew on every
// call (docs/benchmarks.md, "Sparse records kept").

/** Distinct projections kept interned: each is one array, so it can key the records' caches. */
const PROJECTIONS = 256;
/** Projections kept per record: an agent's few habitual field lists fit. */
const SHAPES_PER_RECORD = 4;

const interned = new Lru<string, readonly string[]>(PROJECTIONS);

/** projection(fields), the same array for the same kept fields. */
function internedProjection(fields: readonly string[]): readonly string[] {
  const keep = projection(fields) ?? [];
  const key = keep.join(',');
  const known = interned.get(key);
  if (known !== undefined) return known;
  interned.set(key, keep);
  return keep;
}

const shapes = new WeakMap<object, Map<readonly string[], SparseOpportunity>>();

/** sparseRecord(record, keep), made once per record and `keep` (frozen: requests share it). */
function keptSparseRecord(record: Opportunity, keep: readonly string[]): SparseOpportunity {
  let kept = shapes.get(record);
  const known = kept?.get(keep);
  if (known !== undefined) return known;
  const sparse = Object.freeze(sparseRecord(record, keep));
  if (kept === undefined) shapes.set(record, (kept = new Map()));
  if (kept.size >= SHAPES_PER_RECORD) {
    // The record's oldest projection goes first (a Map iterates in insertion order).
    const oldest = kept.keys().next();
    if (!oldest.done) kept.delete(oldest.value);
  }
  kept.set(keep, sparse);
  return sparse;
}

/**
 * One request's projection of its pages: the records themselves without `fields`; with them,
 * every envelope the request builds (the result budget's trial cuts, the served page) holds the
 * same sparse objects, so their JSON is made once.
 */
export function recordShaper(
  fields: readonly string[] | undefined,
): (records: readonly Opportunity[]) => SparseOpportunity[] {
  if (fields === undefined) return (records) => [...records];
  const keep = internedProjection(fields);
  return (records) => records.map((record) => keptSparseRecord(record, keep));
}
