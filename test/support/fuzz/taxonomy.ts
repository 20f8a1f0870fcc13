import taxonomyJson from '../../../src/domain/taxonomy/occupations.v1.json';

// The taxonomy as the random generators read it: straight from its data file, none of src/'s
// logic, so an oracle built on it stays independent of the service.

export interface TaxonomyNode {
  id: string;
  parent_id: string | null;
  level: 'root' | 'domain' | 'family' | 'subfamily' | 'class';
  label: string;
}

export const NODES: readonly TaxonomyNode[] = (taxonomyJson as { nodes: TaxonomyNode[] }).nodes;
export const BY_ID = new Map(NODES.map((n) => [n.id, n]));

export const idsAt = (level: TaxonomyNode['level']): string[] =>
  NODES.filter((n) => n.level === level).map((n) => n.id);

/** The chain [domain, family, subfamily, class] down to a node, null below it. */
export function chainTo(id: string | null): (string | null)[] {
  const chain: (string | null)[] = [null, null, null, null];
  const depth: Record<string, number> = { domain: 0, family: 1, subfamily: 2, class: 3 };
  let node = id ? BY_ID.get(id) : undefined;
  while (node && node.level !== 'root') {
    chain[depth[node.level] ?? 0] = node.id;
    node = node.parent_id ? BY_ID.get(node.parent_id) : undefined;
  }
  return chain;
}

/** A few classes of two families, so that records share ancestors and buckets tie. */
export const FOCUS_CLASSES = [
  'snowflake_data_engineer',
  'etl_developer',
  'react_developer',
  'java_backend_developer',
  'python_backend_developer',
  'devops_engineer',
];
