import type { Client } from '@opensearch-project/opensearch';

/**
 * What the indices behind an alias can do that older mappings could not. Asked of the mapping,
 * not its version number, so the answer holds whatever versions later changes take.
 */
export interface MappingFeatures {
  /** record_num (mapping 5): new_count and unseen_only leave records out by number. */
  recordNumbers: boolean;
  /** record_digest as doc values (mapping 6): a page's digests without its stored texts. */
  digestValues: boolean;
}

type Properties = Record<string, { doc_values?: unknown } | undefined>;

/** The features every index behind `alias` has (none when no index is behind it). */
export async function liveFeatures(client: Client, alias: string): Promise<MappingFeatures> {
  const res = await client.indices.getMapping({ index: alias });
  const indices = Object.values(
    res.body as Record<string, { mappings?: { properties?: Properties } }>,
  ).map((i) => i.mappings?.properties ?? {});
  const all = (has: (p: Properties) => boolean) => indices.length > 0 && indices.every(has);
  return {
    recordNumbers: all((p) => p.record_num !== undefined),
    // A keyword field has doc values unless the mapping turns them off (mappings 4 and 5 did);
    // the engine leaves the default out of the mapping it returns.
    digestValues: all((p) => p.record_digest !== undefined && p.record_digest.doc_values !== false),
  };
}

/**
 * The live features of one alias, asked once per index generation (search/generation.ts: a
 * reindex's alias swap starts a new one) and on every call while no generation is known. An index
 * swapped in by a reindex is one of this code's mapping or newer, so an answer kept until the
 * generation moves only errs towards the older, slower way, which stays exact.
 */
export class LiveMapping {
  private known: { generation: string; features: Promise<MappingFeatures> } | null = null;

  constructor(
    private readonly client: Client,
    private readonly alias: string,
    private readonly generation: () => string | null = () => null,
  ) {}

  features(): Promise<MappingFeatures> {
    const generation = this.generation();
    if (generation !== null && this.known?.generation === generation) return this.known.features;
    const features = liveFeatures(this.client, this.alias);
    if (generation === null) return features;
    this.known = { generation, features };
    // A failed question is not kept: the next call asks again.
    features.catch(() => {
      if (this.known?.features === features) this.known = null;
    });
    return features;
  }
}
