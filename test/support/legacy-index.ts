import type { Client } from '@opensearch-project/opensearch';
import { indexDefinition } from '../../src/search/index-definition';
import { swapAlias } from '../../src/search/index-manager';

/**
 * Puts the alias on an empty index of the mapping before keyword search (strict, no analyzed
 * fields, no analysis, no version in _meta): what a deployment of older code left behind.
 */
export async function aliasOnLegacyIndex(search: Client, alias: string): Promise<string> {
  const legacy = `${alias}__legacy`;
  const { mappings, settings } = indexDefinition();
  const { _meta: _version, ...oldMappings } = mappings;
  const properties = { ...(oldMappings.properties as Record<string, Record<string, unknown>>) };
  for (const name of ['title', 'organization_names', 'taxonomy_labels', 'search_text']) {
    delete properties[name];
  }
  for (const name of ['normalized_title', 'specializations']) {
    const { fields: _fields, copy_to: _copy, ...plain } = properties[name] ?? {};
    properties[name] = plain;
  }
  await search.indices.create({
    index: legacy,
    body: {
      settings: { index: settings.index },
      mappings: { ...oldMappings, properties },
    } as never,
  });
  await swapAlias(search, alias, legacy);
  return legacy;
}
