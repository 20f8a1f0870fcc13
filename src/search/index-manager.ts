import { createHash } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import { indexDefinition } from './index-definition';
import { currentLayout, layoutSettings, type IndexLayout } from './index-layout';

/**
 * An index belongs to one database (contract §22.3): the alias carries the database's name, so two
 * databases never share an index and a fresh database starts with an empty one. Index names take
 * lower-case letters, digits and `_`; a name the mapping to them changed also carries a digest of
 * itself after a `-` (which no such name holds): `audit-s12`, `Audit_S12` and `audit_s12` were one
 * alias, and two stores then filled, and rebuilt, one index in turn.
 */
export function aliasForDatabase(databaseName: string): string {
  const plain = databaseName.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (plain === databaseName) return `opportunities_${plain}`;
  const digest = createHash('sha256').update(databaseName).digest('hex').slice(0, 8);
  return `opportunities_${plain}-${digest}`;
}

export async function aliasTargets(client: Client, alias: string): Promise<string[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists.body) return [];
  const res = await client.indices.getAlias({ name: alias });
  return Object.keys(res.body as Record<string, unknown>);
}

/**
 * The uuid OpenSearch gave the index when it was created: an index deleted and created again
 * under the same name has another one (sync.ts keeps the watermark's index by it).
 */
export async function indexUuid(client: Client, index: string): Promise<string> {
  const uuid = await uuidOf(client, index);
  if (uuid === null) throw new Error(`no uuid in the settings of index ${index}`);
  return uuid;
}

/** The uuid of the index behind the alias, in one call; null when the alias has no index. */
export async function aliasIndexUuid(client: Client, alias: string): Promise<string | null> {
  return uuidOf(client, alias).catch((err: unknown) => {
    if ((err as { meta?: { statusCode?: number } }).meta?.statusCode === 404) return null;
    throw err;
  });
}

async function uuidOf(client: Client, target: string): Promise<string | null> {
  const res = await client.indices.getSettings({ index: target, name: 'index.uuid' });
  const [only] = Object.values(
    res.body as Record<string, { settings?: { index?: { uuid?: unknown } } }>,
  );
  const uuid = only?.settings?.index?.uuid;
  return typeof uuid === 'string' ? uuid : null;
}

export async function createVersionedIndex(
  client: Client,
  alias: string,
  version: string,
  layout: IndexLayout = {},
): Promise<string> {
  const index = `${alias}__${version}`;
  // Shards and replicas from the settings, else those of the version being replaced.
  const replaced = (await aliasTargets(client, alias))[0];
  const current = replaced ? await currentLayout(client, replaced) : {};
  // The synonyms file is read into the settings here: a reindex picks up an edited list.
  const definition = indexDefinition();
  const settings = {
    ...definition.settings,
    index: { ...definition.settings.index, ...layoutSettings(layout, current) },
  };
  try {
    await client.indices.create({ index, body: { ...definition, settings } as never });
  } catch (err) {
    // A concurrent first start may have created the same first version already.
    const type = (err as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error
      ?.type;
    if (type !== 'resource_already_exists_exception') throw err;
  }
  return index;
}

/**
 * Makes sure the alias points at an index, creating the first version when needed. The first
 * version may exist already: made a moment ago by a concurrent first start (then it is the one),
 * or retired by a reindex and kept for its grace (retired-indices.ts) when the live index was lost.
 * A retired index is a past snapshot (records deleted or changed since), never to be served again:
 * its successor is used instead, named after the moment it was retired, so that processes racing
 * here all create, or find, the same one and the alias ends on one index. The sync fills a new
 * index from its watermark 0 (sync.ts).
 */
export async function ensureIndex(
  client: Client,
  alias: string,
  layout: IndexLayout = {},
): Promise<string> {
  const targets = await aliasTargets(client, alias);
  if (targets[0]) return targets[0];
  let version = '000001';
  // Bounded: each step is an index a reindex retired, all within its grace.
  for (let step = 0; step < 20; step++) {
    const index = await createVersionedIndex(client, alias, version, layout);
    const retiredAt = await retiredAtOf(client, index);
    if (retiredAt === null) {
      await client.indices.updateAliases({ body: { actions: [{ add: { index, alias } }] } });
      return index;
    }
    version = String(retiredAt);
  }
  throw new Error(`no index of ${alias} that a reindex has not retired`);
}

/** When a reindex retired `index` (its mapping's _meta dates it: retired-indices.ts), or null. */
async function retiredAtOf(client: Client, index: string): Promise<number | null> {
  const res = await client.indices.getMapping({ index });
  const mappings = res.body as Record<string, { mappings?: { _meta?: { retired_at?: unknown } } }>;
  const retiredAt = mappings[index]?.mappings?._meta?.retired_at;
  const at = typeof retiredAt === 'string' ? Date.parse(retiredAt) : NaN;
  return Number.isNaN(at) ? null : at;
}

/**
 * Moves the alias to `index` in one atomic call and returns the indices it left. They are not
 * deleted here: searches in flight may still run on them (sync.ts retires them).
 */
export async function swapAlias(client: Client, alias: string, index: string): Promise<string[]> {
  const old = (await aliasTargets(client, alias)).filter((i) => i !== index);
  await client.indices.updateAliases({
    body: {
      actions: [...old.map((i) => ({ remove: { index: i, alias } })), { add: { index, alias } }],
    },
  });
  return old;
}

/**
 * Takes the alias off every index it names, so that reads fail (503) instead of answering from
 * them, and returns those indices (not deleted here: searches may still run on them).
 */
export async function detachAlias(client: Client, alias: string): Promise<string[]> {
  const old = await aliasTargets(client, alias);
  if (old.length === 0) return old;
  await client.indices.updateAliases({
    body: { actions: old.map((index) => ({ remove: { index, alias } })) },
  });
  return old;
}

/** Drops the alias and every index of this database (tests clean up with it). */
export async function dropIndices(client: Client, alias: string): Promise<void> {
  await client.indices.delete({ index: `${alias}__*`, ignore_unavailable: true } as never);
}
