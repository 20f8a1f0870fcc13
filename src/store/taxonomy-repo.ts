import type { Pool } from 'pg';
import { Taxonomy, type TaxonomyNode } from '../domain/taxonomy';

/** Loads the current taxonomy version (contract §4.4: the root is one of the nodes). */
export async function loadCurrentTaxonomy(pool: Pool): Promise<Taxonomy> {
  const version = await pool.query<{ version: string }>(
    'SELECT version FROM taxonomy_versions WHERE is_current',
  );
  const current = version.rows[0]?.version;
  if (!current) throw new Error('no current taxonomy version: run migrations');
  const nodes = await pool.query<TaxonomyNode>(
    `SELECT id, parent_id, level, label FROM taxonomy_nodes WHERE version = $1
     ORDER BY array_position(ARRAY['root','domain','family','subfamily','class'], level), id`,
    [current],
  );
  return new Taxonomy(current, nodes.rows);
}
