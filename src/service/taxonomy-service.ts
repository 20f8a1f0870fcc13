import type { TaxonomyEnvelope } from '../domain/envelopes';
import type { Taxonomy } from '../domain/taxonomy';
import { entityTag } from '../infra/entity-tag';

export interface TaxonomyDocument {
  body: TaxonomyEnvelope;
  /** Strong validator of the serialized body, for ETag / If-None-Match. */
  etag: string;
}

/** contract §4.4: `{ version, root, nodes }`, the root among the nodes. Built once per taxonomy. */
export function taxonomyDocument(taxonomy: Taxonomy): TaxonomyDocument {
  const body: TaxonomyEnvelope = {
    version: taxonomy.version,
    root: taxonomy.root.id,
    nodes: taxonomy.nodes.map(({ id, parent_id, level, label }) => ({
      id,
      parent_id,
      level,
      label,
    })),
  };
  const etag = entityTag(JSON.stringify(body), 'strong');
  return { body, etag };
}
