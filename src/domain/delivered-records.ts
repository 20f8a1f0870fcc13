// What new_count and unseen_only leave out (contract §10.3, §11.1): the records delivered to the
// account in the current period. The metering side reads them; the index leaves them out, by
// record number in one roaring bitmap when its mapping has the numbers (mapping 5), else by id
// (an index built by older code, until its rebuild; the in-memory index).

export interface DeliveredRecords {
  /** How many deliveries (0: nothing to leave out). */
  readonly count: number;
  /**
   * The delivered records' numbers (opportunities.record_num) as a portable roaring bitmap in
   * base64, as OpenSearch's bitmap terms filter reads it; null when only ids are known. A
   * delivered id without a stored record has no number: no index holds it, so nothing is lost.
   */
  readonly bitmap: string | null;
  /**
   * Numbers delivered after `bitmap` was made, none of them in it: the set is `bitmap` and these.
   * So `bitmap` stays the same text from one request to the next while the account's deliveries
   * grow, and the engine answers its filter from its query cache instead of building it again
   * (billing/delivered-cache.ts). Absent or empty: `bitmap` is the whole set.
   */
  readonly recent?: readonly number[];
  /** The delivered records' ids (read when an index has no record numbers). */
  ids(): Promise<readonly string[]>;
}

/** Delivered records known by id only (the in-memory meter). */
export function deliveredByIds(ids: readonly string[]): DeliveredRecords {
  const copy = ids.slice();
  return { count: copy.length, bitmap: null, ids: async () => copy };
}
