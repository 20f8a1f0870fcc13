// In-memory view of one version of the occupational taxonomy (contract §3, §4.4).
// Loaded once from Postgres; used to validate taxonomy filters and to compute a record's ancestors.

export const TAXONOMY_LEVELS = ['root', 'domain', 'family', 'subfamily', 'class'] as const;
export type TaxonomyLevel = (typeof TAXONOMY_LEVELS)[number];

export interface TaxonomyNode {
  id: string;
  parent_id: string | null;
  level: TaxonomyLevel;
  label: string;
}

export class Taxonomy {
  private readonly byId: Map<string, TaxonomyNode>;
  readonly root: TaxonomyNode;

  constructor(
    readonly version: string,
    readonly nodes: readonly TaxonomyNode[],
  ) {
    this.byId = new Map(nodes.map((n) => [n.id, n]));
    const roots = nodes.filter((n) => n.level === 'root');
    if (roots.length !== 1) throw new Error(`taxonomy ${version} must have exactly one root`);
    this.root = roots[0] as TaxonomyNode;
  }

  get(id: string): TaxonomyNode | undefined {
    return this.byId.get(id);
  }

  /** True when `id` names a node at exactly `level`. */
  isLevel(id: string, level: TaxonomyLevel): boolean {
    return this.byId.get(id)?.level === level;
  }

  /** The node itself and every ancestor up to (excluding) the root, nearest first. */
  lineage(id: string): TaxonomyNode[] {
    const out: TaxonomyNode[] = [];
    let node = this.byId.get(id);
    while (node && node.level !== 'root') {
      out.push(node);
      node = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    }
    return out;
  }

  /** The ancestor of `id` at `level` (or the node itself), if any. */
  ancestorAt(id: string, level: TaxonomyLevel): string | undefined {
    return this.lineage(id).find((n) => n.level === level)?.id;
  }
}
