import type { Client } from '@opensearch-project/opensearch';
import type { Opportunity } from '../../src/domain/record';
import type { Taxonomy } from '../../src/domain/taxonomy';
import { bulkWithRetry } from '../../src/search/bulk';
import { toDocument } from '../../src/search/documents';
import { indexChanged } from '../../src/search/generation';
import { indexDefinition } from '../../src/search/index-definition';
import { swapAlias } from '../../src/search/index-manager';
import type { AppDeps } from '../../src/service/context';

/** What the index of older code has and the current mapping dropped (mapping 4: the stored text). */
const DROPPED = { record: { type: 'object', enabled: false } };
/** Before mapping 7 the stored source held every field of a document. */
const OLDER_SOURCE = { enabled: true };
/** What older code's documents lack (keyword search's fields; mapping 4's stored text). */
const ADDED = ['title', 'organization_names', 'taxonomy_labels', 'search_text'];
const ADDED_IN_4 = ['record_json', 'record_digest'];

/**
 * Puts the alias on an empty index of the mapping before keyword search (strict, no analyzed
 * fields, no analysis, no version in _meta): what a deployment of older code left behind.
 */
export async function aliasOnLegacyIndex(search: Client, alias: string): Promise<string> {
  const legacy = `${alias}__legacy`;
  const { mappings, settings } = indexDefinition();
  const { _meta: _version, ...oldMappings } = mappings;
  const properties: Record<string, Record<string, unknown>> = {
    ...(oldMappings.properties as Record<string, Record<string, unknown>>),
    ...DROPPED,
  };
  for (const name of [...ADDED, ...ADDED_IN_4]) delete properties[name];
  for (const name of ['normalized_title', 'specializations']) {
    const { fields: _fields, copy_to: _copy, ...plain } = properties[name] ?? {};
    properties[name] = plain;
  }
  await search.indices.create({
    index: legacy,
    body: {
      settings: { index: settings.index },
      mappings: { ...oldMappings, _source: OLDER_SOURCE, properties },
    } as never,
  });
  await swapAlias(search, alias, legacy);
  return legacy;
}

/**
 * Indexes `records` into the legacy index as older code did: the filter fields it knew and the
 * public record as an object in the source (no stored text or digest), refreshed.
 */
export async function indexLegacyDocuments(
  search: Client,
  index: string,
  records: readonly Opportunity[],
  taxonomy: Taxonomy,
): Promise<void> {
  const body = records.flatMap((record) => {
    const doc: Record<string, unknown> = { ...toDocument(record, taxonomy), record };
    for (const name of [...ADDED, ...ADDED_IN_4]) delete doc[name];
    return [{ index: { _index: index, _id: record.id } }, doc];
  });
  const res = await search.bulk({ body, refresh: true } as never);
  if ((res.body as { errors: boolean }).errors) throw new Error('legacy bulk indexing failed');
}

/**
 * Puts the alias on an index of an older mapping holding `records` as code of that mapping
 * indexed them, and tells the processes the index changed (as the reindex that swapped it in
 * would). Mapping 4 has no record numbers; neither 4 nor 5 keeps digests as doc values.
 */
export async function aliasOnOlderIndex(
  deps: AppDeps,
  records: readonly Opportunity[],
  version: 4 | 5,
): Promise<string> {
  const index = `${deps.alias}__mapping_${version}`;
  const { mappings, settings } = indexDefinition();
  const { record_num: numbers, ...rest } = mappings.properties as Record<string, unknown>;
  const properties = {
    ...rest,
    ...(version >= 5 ? { record_num: numbers } : {}),
    record_digest: { type: 'keyword', index: false, doc_values: false },
  };
  await deps.search.indices.create({
    index,
    body: {
      settings,
      mappings: {
        ...mappings,
        _source: OLDER_SOURCE,
        _meta: { mapping_version: version },
        properties,
      },
    },
  } as never);
  await bulkWithRetry(
    deps.search,
    records.map((r) => ({
      action: { index: { _index: index, _id: r.id } },
      document: toDocument(r, deps.taxonomy),
    })),
  );
  await deps.search.indices.refresh({ index });
  await swapAlias(deps.search, deps.alias, index);
  await indexChanged(deps.pool, deps.alias);
  return index;
}
