import type { Client } from '@opensearch-project/opensearch';
import { aliasTargets } from './index-manager';

// A reindex moves the alias, but a search that resolved the alias a moment before
// is still running on the old index. Deleting that index at once fails the search; instead it is
// retired (its mapping's _meta records when) and deleted by a later sync or reindex once older
// than the grace (RETIRED_INDEX_GRACE_MS).

type Mappings = Record<
  string,
  { mappings?: { _meta?: { retired_at?: unknown } & Record<string, unknown> } }
>;

/** This alias's own versioned indices (`<alias>__<digits>`), never another alias's. */
function versionsOf(alias: string, indices: string[]): string[] {
  const prefix = `${alias}__`;
  return indices.filter((i) => i.startsWith(prefix) && /^\d+$/.test(i.slice(prefix.length)));
}

/**
 * Dates each index's retirement in its mapping's _meta, beside what the _meta already holds: a
 * put replaces the whole _meta, and without its mapping_version an index the alias is moved back
 * to (an operator's rollback within the grace) would read as one of the first mapping, its
 * features unused (index-definition.ts liveMappingVersion).
 */
export async function retireIndices(client: Client, indices: string[], now = new Date()) {
  for (const index of indices) {
    const res = await client.indices.getMapping({ index });
    const meta = (res.body as Mappings)[index]?.mappings?._meta ?? {};
    await client.indices.putMapping({
      index,
      body: { _meta: { ...meta, retired_at: now.toISOString() } },
    });
  }
}

/**
 * Deletes this alias's indices retired longer than `graceMs` ago, and retires (from now) any that
 * the alias does not point at but that carry no date (left by a failed or older reindex). Callers
 * hold the alias's sync lock, so no reindex is filling an index meanwhile. Best effort: a failure
 * leaves the work to the next call. Returns the deleted indices.
 */
export async function pruneRetiredIndices(
  client: Client,
  alias: string,
  graceMs: number,
  now = Date.now(),
): Promise<string[]> {
  try {
    const targets = new Set(await aliasTargets(client, alias));
    const res = await client.indices.getMapping({
      index: `${alias}__*`,
      ignore_unavailable: true,
      allow_no_indices: true,
    } as never);
    const mappings = res.body as Mappings;
    const expired: string[] = [];
    const undated: string[] = [];
    for (const index of versionsOf(alias, Object.keys(mappings))) {
      if (targets.has(index)) continue;
      const retiredAt = mappings[index]?.mappings?._meta?.retired_at;
      const at = typeof retiredAt === 'string' ? Date.parse(retiredAt) : NaN;
      if (Number.isNaN(at)) undated.push(index);
      else if (now - at >= graceMs) expired.push(index);
    }
    if (undated.length) await retireIndices(client, undated, new Date(now));
    if (graceMs === 0) expired.push(...undated);
    if (expired.length) await client.indices.delete({ index: expired.join(',') });
    return expired;
  } catch {
    return [];
  }
}
