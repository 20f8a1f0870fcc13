import { z } from 'zod';
// `../taxonomy` resolves to the file src/domain/taxonomy.ts, not this folder: TypeScript (node10)
// and Node's CommonJS loader both try `<path>.ts`/`.js` before `<path>/index`, and this folder has
// no index file.
import { TAXONOMY_LEVELS, Taxonomy, type TaxonomyLevel, type TaxonomyNode } from '../taxonomy';
// A JSON import (not fs.readFileSync) so that `tsc` copies the data next to the compiled code.
import occupationsV1 from './occupations.v1.json';

// The occupational taxonomy is versioned data (contract §3.1): this file is the authoring source,
// migrations/002_taxonomy_v1.sql is generated from it, and the seed generator draws job titles
// from the `titles` of class nodes. `titles` never reach the public taxonomy response.

const levelRank = (level: TaxonomyLevel): number => TAXONOMY_LEVELS.indexOf(level);

export const CatalogNode = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9_]+$/, 'a stable snake_case id'),
    parent_id: z.string().nullable(),
    level: z.enum(TAXONOMY_LEVELS),
    label: z.string().trim().min(1).max(200),
    titles: z.array(z.string().trim().min(1).max(200)).min(3).max(6).optional(),
  })
  .refine((n) => (n.level === 'class') === (n.titles !== undefined), {
    message: 'class nodes carry titles; other nodes do not',
    path: ['titles'],
  });

export const TaxonomyCatalog = z
  .strictObject({
    version: z.string().regex(/^v[0-9]+$/),
    nodes: z.array(CatalogNode).min(1),
  })
  // The structural rules the database and the Taxonomy class rely on, checked once at load time
  // so a bad edit of the JSON fails loudly instead of producing a broken hierarchy.
  .superRefine((catalog, ctx) => {
    const byId = new Map<string, z.infer<typeof CatalogNode>>();
    for (const node of catalog.nodes) {
      if (byId.has(node.id)) ctx.addIssue({ code: 'custom', message: `duplicate id ${node.id}` });
      byId.set(node.id, node);
    }
    const roots = catalog.nodes.filter((n) => n.level === 'root');
    if (roots.length !== 1) ctx.addIssue({ code: 'custom', message: 'exactly one root node' });
    for (const node of catalog.nodes) {
      if (node.level === 'root') {
        if (node.parent_id !== null)
          ctx.addIssue({ code: 'custom', message: `root ${node.id} has a parent` });
        continue;
      }
      const parent = node.parent_id === null ? undefined : byId.get(node.parent_id);
      if (!parent || levelRank(parent.level) !== levelRank(node.level) - 1) {
        ctx.addIssue({
          code: 'custom',
          message: `${node.id}: parent must exist one level up (${node.parent_id ?? 'null'})`,
        });
      }
    }
  });

export type CatalogNode = z.infer<typeof CatalogNode>;
export type TaxonomyCatalog = z.infer<typeof TaxonomyCatalog>;

/** The current taxonomy catalog, validated. Parsed on each call, so callers own their copy. */
export function loadTaxonomyCatalog(): TaxonomyCatalog {
  return TaxonomyCatalog.parse(occupationsV1);
}

/** The public view of a catalog: the Taxonomy class over its nodes, without authoring data. */
export function taxonomyFromCatalog(catalog: TaxonomyCatalog = loadTaxonomyCatalog()): Taxonomy {
  const nodes: TaxonomyNode[] = catalog.nodes.map((n) => ({
    id: n.id,
    parent_id: n.parent_id,
    level: n.level,
    label: n.label,
  }));
  return new Taxonomy(catalog.version, nodes);
}
