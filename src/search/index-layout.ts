import type { Client } from '@opensearch-project/opensearch';

/**
 * Shards and replicas of a new index version. What the environment sets wins; what it
 * leaves unset is taken from the index being replaced (so reindex keeps a cluster's replicas even
 * when run without the variables), else the single-node defaults 1 and 0.
 */
export interface IndexLayout {
  shards?: number | undefined;
  replicas?: number | undefined;
}

export const SINGLE_NODE_LAYOUT = { shards: 1, replicas: 0 } as const;

export function layoutSettings(
  wanted: IndexLayout,
  current: IndexLayout = {},
): { number_of_shards: number; number_of_replicas: number } {
  return {
    number_of_shards: wanted.shards ?? current.shards ?? SINGLE_NODE_LAYOUT.shards,
    number_of_replicas: wanted.replicas ?? current.replicas ?? SINGLE_NODE_LAYOUT.replicas,
  };
}

/** The layout of an existing index, as OpenSearch reports it (strings in its settings). */
export async function currentLayout(client: Client, index: string): Promise<IndexLayout> {
  const res = await client.indices.getSettings({ index });
  const body = res.body as Record<
    string,
    { settings?: { index?: { number_of_shards?: string; number_of_replicas?: string } } }
  >;
  const settings = Object.values(body)[0]?.settings?.index;
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  return { shards: num(settings?.number_of_shards), replicas: num(settings?.number_of_replicas) };
}
