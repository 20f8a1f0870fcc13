import {
  MAPPING_VERSION,
  indexDefinition,
  liveMappingVersion,
  staleMappingWarning,
} from '../../src/search/index-definition';
import { reindex } from '../../src/search/sync';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { aliasOnLegacyIndex } from '../support/legacy-index';
import { createTestContext, type TestContext } from '../support/harness';
import { KEYWORD_FIXTURE, titled } from '../support/keyword-fixture';
import { idsOf, qs } from '../support/read-fixture';
import { get, newReader } from '../support/read-http';

// A deployment whose live index was built before the keyword-search mapping moves to it
// with `cli reindex` (a new version, an atomic alias swap), and the server tells the operator so
// until then (server.ts logs staleMappingWarning at start).

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...KEYWORD_FIXTURE]);
});
afterAll(() => ctx.close());

it('a new index carries the mapping version of the code and the repository synonyms', async () => {
  expect(await liveMappingVersion(ctx.deps.search, ctx.deps.alias)).toBe(MAPPING_VERSION);
  expect(await staleMappingWarning(ctx.deps.search, ctx.deps.alias)).toBeNull();
  const res = await ctx.deps.search.indices.getSettings({ index: ctx.deps.alias });
  const settings = JSON.stringify(res.body);
  expect(settings).toContain('k8s, kubernetes');
  expect(indexDefinition(['foo, bar']).settings.analysis.filter.keyword_synonyms).toEqual({
    type: 'synonym_graph',
    synonyms: ['foo, bar'],
  });
});

it('an index of the previous mapping is reported, and cli reindex moves the alias to the new one', async () => {
  const { search, alias } = ctx.deps;
  await aliasOnLegacyIndex(search, alias);
  // As the code of that mapping left its sync state: no index recorded (before migration 009).
  // A state that names another index would say the index was lost, and the follower rebuilds it.
  await ctx.deps.pool.query('UPDATE sync_state SET index_uuid = NULL WHERE index_alias = $1', [
    alias,
  ]);
  expect(await liveMappingVersion(search, alias)).toBe(1);
  expect(await staleMappingWarning(search, alias)).toMatch(/reindex/);
  // What the warning is about: the strict old mapping refuses the new documents' fields.
  await expect(storeAndIndex(ctx.deps, [makeRecord({ title: 'Elixir Engineer' })])).rejects.toThrow(
    /bulk indexing failed/,
  );

  await reindex(ctx.deps);
  expect(await staleMappingWarning(search, alias)).toBeNull();
  const reader = await newReader(ctx.deps);
  const res = await get(ctx.baseUrl, `/v1/opportunities?${qs({ q: 'k8s' })}`, { key: reader.key });
  expect(idsOf(res.body.data)).toEqual(
    titled('Senior Golang Developer', 'Kubernetes Platform Engineer', 'K8s Reliability Lead'),
  );
  // The record the old index refused is there too: the store is the source of the rebuild.
  const elixir = await get(ctx.baseUrl, `/v1/opportunities/count?q=elixir`, { key: reader.key });
  expect(elixir.body.count).toBe(1);
});
