import { Readable } from 'node:stream';
import type { Client } from '@opensearch-project/opensearch';
import { parseRestQuery } from '../../src/domain/filters';
import { recordDigest } from '../../src/domain/record-text';
import { OpenSearchIndex } from '../../src/search/opensearch-index';
import { RecordTexts } from '../../src/search/record-texts';
import { ResultCache } from '../../src/search/result-cache';
import type { SearchCache } from '../../src/search/search-cache';
import { taxonomy } from './taxonomy-fixture';

// What a first page does between the digests-only search and its multi-get (search/record-texts.ts,
// OpenSearchIndex.page) when the engine misbehaves in between: a record gone by the multi-get is
// left out (as a hit without a text always was), and a failed multi-get is the engine being
// unavailable (503 search_unavailable, nothing charged), never a page with holes.

const docs = ['a', 'b', 'c'].map((id, i) => {
  const json = JSON.stringify({ id, title: `Role ${id}` });
  return { id, json, digest: recordDigest(json), sort: [3000 - i, id] };
});

interface Engine {
  mget: (ids: string[]) => Promise<unknown>;
  mgets: number;
  mappings?: number;
  /** Every search's parameters but its body. */
  searches?: Record<string, unknown>[];
  /** Every search's size. */
  sizes?: number[];
}

/** The client's answer: a stream of its bytes when asked for one (search/answer-items.ts). */
function answer(body: unknown, options?: { asStream?: boolean }) {
  if (!options?.asStream) return { body };
  return { statusCode: 200, headers: {}, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

function fakeClient(engine: Engine): Client {
  return {
    indices: {
      getMapping: async () => {
        engine.mappings = (engine.mappings ?? 0) + 1;
        return {
          body: { idx: { mappings: { properties: { record_num: {}, record_digest: {} } } } },
        };
      },
    },
    search: async (
      { body, ...params }: { body: { stored_fields?: unknown; size: number } },
      options?: { asStream?: boolean },
    ) => {
      (engine.searches ??= []).push(params);
      (engine.sizes ??= []).push(body.size);
      if (!body.stored_fields) {
        // A search with the texts (its whole stored source: mapping 7).
        const hits = docs.map((d) => ({
          _index: 'idx',
          _source: { id: d.id, record_json: d.json, record_digest: d.digest },
          sort: d.sort,
        }));
        return answer({ hits: { hits } }, options);
      }
      return {
        body: {
          hits: {
            hits: docs.map((d) => ({
              _index: 'idx',
              fields: { record_digest: [d.digest] },
              sort: d.sort,
            })),
          },
        },
      };
    },
    mget: async (
      { body }: { body: { docs: { _id: string }[] } },
      options?: { asStream?: boolean },
    ) => {
      engine.mgets++;
      return answer(await engine.mget(body.docs.map((d) => d._id)), options);
    },
  } as unknown as Client;
}

function indexOver(engine: Engine, known: string | null = '1'): OpenSearchIndex {
  const client = fakeClient(engine);
  const generation = { current: () => known };
  const cache = {
    client,
    generation,
    counts: new ResultCache(generation, { maxEntries: 10, maxAgeMs: 60_000 }),
    pages: new ResultCache(generation, { maxEntries: 10, maxAgeMs: 60_000 }),
    readAhead: new ResultCache(generation, { maxEntries: 10, maxAgeMs: 60_000 }),
    aggregates: new ResultCache(generation, { maxEntries: 10, maxAgeMs: 60_000 }),
    texts: new RecordTexts(1_000_000),
  } as unknown as SearchCache;
  return new OpenSearchIndex(client, 'alias', taxonomy, cache);
}

const query = (q: Record<string, string>) => ({
  filter: parseRestQuery('list', q, { taxonomy, maxPageSize: 100 }).filter,
  limit: 2,
});

it('leaves out a record gone by the multi-get, and keeps the others in order', async () => {
  const engine: Engine = {
    mgets: 0,
    mget: async (ids) => ({
      docs: ids.map((id) =>
        id === 'a'
          ? { _id: id, found: false }
          : {
              _id: id,
              found: true,
              _source: {
                id,
                record_json: docs.find((d) => d.id === id)?.json,
                record_digest: docs.find((d) => d.id === id)?.digest,
              },
            },
      ),
    }),
  };
  const page = await indexOver(engine).page(query({ country: 'US' }));
  expect(page.records.map((r) => r.id)).toEqual(['b']);
  expect(page.positions).toEqual([[2999, 'b']]);
  // The hit past the page still tells that another page exists; its text was never asked for.
  expect(page.hasMore).toBe(true);
  expect(engine.mgets).toBe(1);
});

it('a failed multi-get is the engine unavailable', async () => {
  const engine: Engine = {
    mgets: 0,
    mget: async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectionError' });
    },
  };
  await expect(indexOver(engine).page(query({ country: 'GB' }))).rejects.toMatchObject({
    code: 'search_unavailable',
    status: 503,
  });
});

it('with no index generation known, a first page goes with its texts and asks no mapping', async () => {
  const engine: Engine = {
    mgets: 0,
    mget: async () => {
      throw new Error('no multi-get expected');
    },
  };
  const index = indexOver(engine, null);
  for (const country of ['US', 'GB', 'DE']) {
    const page = await index.page(query({ country }));
    expect(page.records.map((r) => r.id)).toEqual(['a', 'b']);
  }
  expect(engine.mappings ?? 0).toBe(0);
  expect(engine.mgets).toBe(0);
});

it('page searches take the whole answer: no filter_path, which costs the engine more', async () => {
  const engine: Engine = { mgets: 0, mget: async () => ({ docs: [] }) };
  const index = indexOver(engine);
  // A first page (digests, then its texts) and a page that follows a cursor (texts in the search).
  await index.page(query({ country: 'DE' }));
  const next = await index.page({ ...query({ country: 'DE' }), searchAfter: [4000, 'z'] });
  expect(next.records.map((r) => r.id)).toEqual(['a', 'b']);
  expect(engine.searches).toHaveLength(2);
  for (const params of engine.searches ?? []) expect(params).not.toHaveProperty('filter_path');
});

it('a page after a cursor is kept once asked again; a first page at once', async () => {
  const engine: Engine = { mgets: 0, mget: async () => ({ docs: [] }) };
  const index = indexOver(engine);
  const after = { ...query({ country: 'FR' }), searchAfter: [4000, 'z'] as [number, string] };
  for (let i = 0; i < 3; i++) await index.page(after);
  expect(engine.searches).toHaveLength(2);
  const first = query({ country: 'IT' });
  for (let i = 0; i < 2; i++) await index.page(first);
  expect(engine.searches).toHaveLength(3);
});

it('a page after a cursor reads the next pages ahead, each found by the cursor its page ends at', async () => {
  const engine: Engine = { mgets: 0, mget: async () => ({ docs: [] }) };
  const index = indexOver(engine);
  const walk = { ...query({ country: 'NL' }), limit: 1 };
  // One record a page: the search asks for ten pages (the most one search reads) and one hit
  // more; the engine has three.
  const second = await index.page({ ...walk, searchAfter: [4000, 'z'] });
  expect(second.records.map((r) => r.id)).toEqual(['a']);
  expect(second.hasMore).toBe(true);
  expect(engine.sizes).toEqual([11]);
  // The next pages come from that search, under the positions their cursors carry.
  const third = await index.page({ ...walk, searchAfter: second.positions[0] });
  const fourth = await index.page({ ...walk, searchAfter: third.positions[0] });
  expect([third, fourth].map((p) => [p.records.map((r) => r.id), p.hasMore])).toEqual([
    [['b'], true],
    [['c'], false],
  ]);
  expect(engine.sizes).toEqual([11]);
  // Served once: the same cursor again searches (for a page of its own and those after it).
  await index.page({ ...walk, searchAfter: second.positions[0] });
  expect(engine.sizes).toEqual([11, 11]);
  // A page size of 60 reads nothing ahead.
  await index.page({ ...walk, limit: 60, searchAfter: [4000, 'z'] });
  expect(engine.sizes).toEqual([11, 11, 61]);
});

it("an unseen_only page's body, which carries the account's deliveries, is never made into a key", async () => {
  // The bitmap of 200,000 deliveries on a store of 1,000,000 records is about 175 KB of base64:
  // JSON.stringify of such a body cost 0.7 ms, for a key that no unseen_only page uses (it is
  // neither cached nor read ahead).
  const engine: Engine = { mgets: 0, mget: async () => ({ docs: [] }) };
  const index = indexOver(engine);
  const exclude = { count: 1, bitmap: 'OjAAAAEAAAAAAAAAEAAAAAEA', ids: async () => ['x'] };
  const stringify = jest.spyOn(JSON, 'stringify');
  try {
    for (const searchAfter of [undefined, [4000, 'z'] as [number, string]]) {
      await index.page({ ...query({ country: 'SE' }), searchAfter, exclude });
    }
    const bodies = stringify.mock.calls.filter(
      ([value]) => typeof value === 'object' && value !== null && 'query' in value,
    );
    expect(bodies).toEqual([]);
  } finally {
    stringify.mockRestore();
  }
  expect(engine.sizes).toEqual([3, 3]);
});
