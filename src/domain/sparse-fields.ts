import { OPPORTUNITY_FIELDS, type Opportunity, type SparseOpportunity } from './record';

// Sparse records (contract §7.6 `fields`): every record of a response has exactly id plus the named
// top-level fields, in the record's own field order. One function for list, detail, the change
// feed and both MCP record tools, applied where the service builds the envelope, after the page
// is chosen and metered the same as without fields. Without fields (the default) records pass
// through untouched: the same objects, so a page's cached JSON text is reused (list-json.ts).

/** The fields to keep, `id` first, in record order; built once per request. */
export function projection(fields: readonly string[] | undefined): readonly string[] | undefined {
  if (fields === undefined) return undefined;
  const named = new Set(fields);
  return OPPORTUNITY_FIELDS.filter((f) => f === 'id' || named.has(f));
}

/** `record` with only the kept fields; the record itself when nothing is projected. */
export function sparseRecord(
  record: Opportunity,
  keep: readonly string[] | undefined,
): SparseOpportunity {
  if (keep === undefined) return record;
  const out: Record<string, unknown> = {};
  for (const field of keep) {
    if (field in record) out[field] = record[field as keyof Opportunity];
  }
  return out as SparseOpportunity;
}
