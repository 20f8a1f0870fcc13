import { recordText, storedText } from '../domain/record-text';
import { projection, sparseRecord } from '../domain/sparse-fields';
import type { Opportunity, SparseOpportunity } from '../domain/record';
import { Lru } from '../infra/lru';
import { metrics } from '../infra/metrics';

// A list page's records as `fields` shapes them (contract §7.6). An agent asks for the same fields
// call after call, mostly for pages the result cache already holds, and each call parsed every
// stored record, built its sparse copy and serialized, quoted and encoded that anew: a call with
// the agent's fields cost more CPU than one with whole records (docs/benchmarks.md, "Sparse
// records kept"). A sparse record of a stored record is now made once and kept, with its texts
// (record-text.ts, list-bytes.ts), under the record's digest and the projection: the same content
// and fields give the same sparse record, whichever request or record object asks.
//
// The bound is on the kept sparse records' JSON characters, so it does not depend on how many
// fields or pages an abuser varies; nothing else is kept (no whole record, no page). With the
// sparse object itself, its text, its quoted text and both texts' bytes, a character costs about
// 10 bytes (measured: 4.2 M characters of records with the agent's fields held 25 MB of heap and
// 18 MB of buffers), so 2 M characters are about 21 MB: some 4,500 records with the agent's
// fields, 180 pages of 25.

/** The bound: characters of JSON of the sparse records kept. */
export const SHAPED_CHARACTERS = 2 * 1024 * 1024;

const kept = new Lru<string, SparseOpportunity>(
  SHAPED_CHARACTERS,
  (sparse) => recordText(sparse).json.length,
);

/** How many of a page's sparse records were found kept, and how many were made. */
interface Tally {
  kept: number;
  made: number;
}

/** sparseRecord(record, keep), kept when the record is a stored one (its digest is known). */
function sharedSparseRecord(
  record: Opportunity,
  keep: readonly string[],
  keepKey: string,
  tally: Tally,
): SparseOpportunity {
  const text = storedText(record);
  // A record built in this process (no stored text) would need a hash of its whole JSON to be
  // found again: more than shaping it costs.
  if (text === undefined) {
    tally.made++;
    return sparseRecord(record, keep);
  }
  const key = `${text.digest} ${keepKey}`;
  let sparse = kept.get(key);
  if (sparse !== undefined) {
    tally.kept++;
    return sparse;
  }
  tally.made++;
  // Frozen: requests share it.
  sparse = Object.freeze(sparseRecord(record, keep));
  kept.set(key, sparse);
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
  const keep = projection(fields);
  if (keep === undefined) return (records) => [...records];
  const keepKey = keep.join(',');
  const shaped = new Map<Opportunity, SparseOpportunity>();
  return (records) => {
    const tally: Tally = { kept: 0, made: 0 };
    const page = records.map((record) => {
      let sparse = shaped.get(record);
      if (!sparse) shaped.set(record, (sparse = sharedSparseRecord(record, keep, keepKey, tally)));
      return sparse;
    });
    metrics.sparseRecords(tally.kept, tally.made, kept.weight);
    return page;
  };
}
