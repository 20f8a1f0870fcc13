import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import { liveFeatures } from './live-mapping';
import { scriptAccentFolds } from './script-accents';
import { repositorySynonyms } from './synonyms';

// The definition of a new index version: index-mappings/opportunities.json with the keyword
// search's synonym rules (index-mappings/synonyms.txt) written into its analysis settings. The
// mapping carries a version in `_meta`, so a process can tell an index built by older code.

const MAPPING_FILE = path.resolve(__dirname, '../../index-mappings/opportunities.json');

export type IndexDefinition = {
  settings: Record<string, unknown> & {
    index: Record<string, unknown>;
    analysis: {
      filter: Record<string, Record<string, unknown>>;
      char_filter: Record<string, Record<string, unknown>>;
    };
  };
  mappings: Record<string, unknown> & { _meta: { mapping_version: number } };
};

const base = JSON.parse(readFileSync(MAPPING_FILE, 'utf8')) as IndexDefinition;

/**
 * Words that end in s without being plurals, or whose singular is another word (rails and rail,
 * sales and sale, canvas and Canva): the kept_words marker keeps the plural stemmer off them. The
 * in-memory index reads the same list (memory-text.ts).
 */
export const KEPT_WORDS: ReadonlySet<string> = new Set(
  (base.settings.analysis.filter.kept_words?.keywords as string[] | undefined) ?? [],
);

/** The mapping version of this code: bump it in opportunities.json with every mapping change. */
export const MAPPING_VERSION = base.mappings._meta.mapping_version;

/** The index definition with the repository's synonyms inline (a fresh copy each call). */
export function indexDefinition(
  synonyms: readonly string[] = repositorySynonyms(),
): IndexDefinition {
  const definition = structuredClone(base);
  definition.settings.analysis.filter.keyword_synonyms = {
    type: 'synonym_graph',
    synonyms: [...synonyms],
  };
  definition.settings.analysis.char_filter.script_accents = {
    type: 'mapping',
    mappings: scriptAccentFolds(),
  };
  return definition;
}

/** The mapping version of the index an alias serves; 1 for an index built before versions. */
export async function liveMappingVersion(client: Client, alias: string): Promise<number | null> {
  const res = await client.indices.getMapping({ index: alias });
  const [first] = Object.values(res.body as Record<string, { mappings?: { _meta?: unknown } }>);
  if (!first) return null;
  const meta = first.mappings?._meta as { mapping_version?: unknown } | undefined;
  return typeof meta?.mapping_version === 'number' ? meta.mapping_version : 1;
}

/** Whether every index behind the alias has the record number field (mapping 5). */
export async function liveHasRecordNumbers(client: Client, alias: string): Promise<boolean> {
  return (await liveFeatures(client, alias)).recordNumbers;
}

/** What each mapping version added: what an index of an older version lacks. */
const ADDED_IN: Record<number, string> = {
  2: 'keyword search (q finds nothing)',
  3: 'rate statistics (stats=rate finds nothing)',
  4: 'stored record texts (list pages)',
  5: 'record numbers (new_count and unseen_only use the slower filter by id)',
  6: "digests as doc values (every list page reads its records' texts from the engine)",
  7: 'a source of the served text alone (pages cost the engine more, and carry every field)',
  8: 'C++, C# and F# as terms of their own in keyword search (q=c++ also matches C and C#), and accents written as combining characters folded',
  9: 'a colon between two words separating them in keyword search (q=python misses "Contract:Python")',
  10: 'accents of Greek and Cyrillic letters folded in keyword search (q=προγραμματιστης misses "Προγραμματιστής")',
  11: 'plurals that KStem keeps folded in keyword search (q=game misses "Games", q=resource misses "Human Resources")',
};

/** The last mapping version that added document fields: an older strict mapping refuses them. */
const LAST_FIELDS_ADDED = 7;

/**
 * A warning for the operator when the live index was built by older code: the new
 * fields are missing until `cli reindex` builds a new version and swaps the alias.
 */
export async function staleMappingWarning(client: Client, alias: string): Promise<string | null> {
  const live = await liveMappingVersion(client, alias);
  if (live === null || live >= MAPPING_VERSION) return null;
  const missing = Object.entries(ADDED_IN)
    .filter(([version]) => Number(version) > live)
    .map(([, what]) => what);
  return (
    `the index behind ${alias} has mapping version ${live}, this code expects ${MAPPING_VERSION}: ` +
    'until `npm run cli -- reindex` builds a new index version and swaps the alias (no ' +
    `downtime; docs/search.md), it lacks ${missing.join(', ')}` +
    (live < LAST_FIELDS_ADDED ? ', and the sync cannot index new or changed records into it' : '')
  );
}
