import type { Client } from '@opensearch-project/opensearch';
import { currentLayout } from './index-layout';

// A freshly built index (cli reindex, local mode's rebuild) is bulk-loaded and then mostly read:
// left to itself it keeps the dozen or so segments the bulk load wrote, and each document's full
// source kept for peer recovery (_recovery_source, mapping 7), until later merges get to them.
// Merged before it takes reads, the bench's million records took 1.2 GB instead of 1.9 GB, and
// the engine answered its page searches 14-25 % faster (docs/benchmarks.md, mapping 7).

/**
 * OpenSearch's tiered merge policy writes no merged segment above 5 GB: a shard merged into larger
 * ones would leave them out of the merges that later updates need. So a shard is merged into one
 * segment per 5 GB of its store, at least one.
 */
export const MAX_MERGED_SEGMENT_BYTES = 5 * 1024 ** 3;

/** How many segments a shard of `shardBytes` is merged into. */
export function mergedSegments(shardBytes: number): number {
  return Math.max(1, Math.ceil(shardBytes / MAX_MERGED_SEGMENT_BYTES));
}

/**
 * A merge of a large index outlives any search deadline (about a minute per million records on
 * the 2-core machine of docs/benchmarks.md). Past this the merge goes on in the engine and the
 * caller carries on with an index that is whole, only not yet compact.
 */
const MERGE_TIMEOUT_MS = 60 * 60_000;

/** The store size of the primary shards of `target` (an index or an alias), in bytes. */
export async function primaryStoreBytes(client: Client, target: string): Promise<number> {
  const res = await client.indices.stats({ index: target, metric: 'store' });
  const indices = (
    res.body as {
      indices?: Record<string, { primaries?: { store?: { size_in_bytes?: number } } }>;
    }
  ).indices;
  return Object.values(indices ?? {}).reduce(
    (sum, index) => sum + (index.primaries?.store?.size_in_bytes ?? 0),
    0,
  );
}

/**
 * Merges `index` (not yet behind the alias) down to mergedSegments of its primary shards' size.
 * The index answers the same either way, so a merge that fails or outlives MERGE_TIMEOUT_MS is
 * reported as false and the caller goes on.
 */
export async function compactIndex(client: Client, index: string): Promise<boolean> {
  try {
    const [bytes, layout] = await Promise.all([
      primaryStoreBytes(client, index),
      currentLayout(client, index),
    ]);
    await client.indices.forcemerge(
      { index, max_num_segments: mergedSegments(bytes / Math.max(1, layout.shards ?? 1)) },
      { requestTimeout: MERGE_TIMEOUT_MS },
    );
    // Searches see the merged segments, and the old ones are let go, from the next refresh.
    await client.indices.refresh({ index });
    return true;
  } catch {
    return false;
  }
}
