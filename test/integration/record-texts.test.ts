import type { Opportunity } from '../../src/domain/record';
import { liveFeatures } from '../../src/search/live-mapping';
import { engineReads as readsOf, walk as walkOf } from '../support/engine-reads';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { metricSample } from '../support/metric-sample';
import { aliasOnOlderIndex } from '../support/legacy-index';
import { get, newReader, type Reader } from '../support/read-http';

// A list page asks the engine for its hits' sort values and digests only (doc values, mapping 6)
// and takes each record's text from the process's record texts when the digest matches, from one
// multi-get otherwise (search/record-texts.ts). What is served must be exactly what the index
// holds: a record changed since its text was kept is read again, never served stale; an index
// of older code (no digests as doc values) is served from its stored texts as before.

let ctx: TestContext;
let reader: Reader;

/** The record-text figures of /metrics (src/infra/metrics.ts). */
async function textMetrics(): Promise<{ memory: number; engine: number; held: number }> {
  const texts = (source: string) => metricSample(ctx.baseUrl, 'record_texts_total', { source });
  return {
    memory: await texts('memory'),
    engine: await texts('engine'),
    held: await metricSample(ctx.baseUrl, 'record_texts_held_characters'),
  };
}

const { location } = makeRecord();
const records = Array.from({ length: 8 }, (_, i) =>
  makeRecord({
    published_at: `2026-10-0${i + 1}T00:00:00Z`,
    title: [`Rust "engineer" \u2028 <script>\\ ${i}`, `Data \u00e9t\u00e9 \ud83d\ude80 ${i}`][
      i % 2
    ],
    location: { ...location, country: i % 2 === 0 ? 'US' : 'GB' },
  }),
);
/** Newest first: the list order. */
const listed = [...records].reverse();

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, records);
  reader = await newReader(ctx.deps);
  // Pages go by digest only once the process knows the index generation (it listens from the
  // first call on): until then, with their texts.
  const generation = ctx.deps.searchCache?.generation;
  while (generation?.current() === null) await new Promise((r) => setTimeout(r, 20));
});
afterAll(() => ctx.close());

const engineReads = (run: () => Promise<void>) => readsOf(ctx, run);
const walk = (query: string) => walkOf(ctx, reader, query);

async function listText(query: string): Promise<string> {
  const res = await get(ctx.baseUrl, `/v1/opportunities?${query}`, { key: reader.key });
  expect(res.status).toBe(200);
  return res.text;
}

/** The records of a list body as the store holds them (jsonb's key order), spliced as served. */
async function storedTexts(ids: readonly string[]): Promise<string> {
  const { rows } = await ctx.deps.pool.query<{ id: string; record: Opportunity }>(
    'SELECT id, record FROM opportunities WHERE id = ANY($1)',
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, JSON.stringify(r.record)]));
  return ids.map((id) => byId.get(id)).join(',');
}

it('reads digests only, then the texts it does not hold, once', async () => {
  expect(await liveFeatures(ctx.deps.search, ctx.deps.alias)).toEqual({
    recordNumbers: true,
    digestValues: true,
  });
  let first = '';
  // A filter no cache has seen, whose records no page has served yet: one multi-get.
  const firstReads = await engineReads(async () => {
    first = await listText('limit=3&country=US');
  });
  expect(firstReads).toEqual(['digests', 'mget']);
  const us = listed.filter((r) => r.location.country === 'US');
  expect(first).toContain(`{"data":[${await storedTexts(us.slice(0, 3).map((r) => r.id))}],`);

  // Another filter (not in the page cache) over the same records: no multi-get at all.
  let again = '';
  const againReads = await engineReads(async () => {
    again = await listText('limit=3&country=US&remote=false');
  });
  expect(againReads).toEqual(['digests']);
  expect(again).toContain(`{"data":[${await storedTexts(us.slice(0, 3).map((r) => r.id))}],`);

  // A page of kept and new records reads only the new ones, and /metrics says where each came from.
  const before = await textMetrics();
  let all = '';
  const allReads = await engineReads(async () => {
    all = await listText('limit=8');
  });
  expect(allReads).toEqual(['digests', 'mget']);
  const after = await textMetrics();
  expect(after.memory - before.memory).toBe(3);
  expect(after.engine - before.engine).toBe(5);
  expect(after.held).toBeGreaterThan(before.held);
  expect(all).toContain(`{"data":[${await storedTexts(listed.map((r) => r.id))}],`);
});

it('serves a record changed since its text was kept as the index now holds it', async () => {
  const newest = listed[0] as Opportunity;
  await listText('limit=2'); // the text is kept
  await storeAndIndex(ctx.deps, [{ ...newest, title: 'Renamed "senior" role \ud83d\ude80' }]);
  let text = '';
  const reads = await engineReads(async () => {
    text = await listText('limit=2');
  });
  expect(reads).toEqual(['digests', 'mget']);
  expect(text).toContain('Renamed \\"senior\\" role');
  expect(text).toContain(`{"data":[${await storedTexts(listed.slice(0, 2).map((r) => r.id))}],`);
});

it('pages that follow a cursor read their texts and keep none', async () => {
  // 30 older records no page has served, walked by cursor twice.
  const older = Array.from({ length: 30 }, (_, i) =>
    makeRecord({ published_at: `2026-09-${String(i + 1).padStart(2, '0')}T00:00:00Z` }),
  );
  await storeAndIndex(ctx.deps, older);
  const expectedIds = [...older].reverse().map((r) => r.id);
  for (const second of ['59', '58']) {
    const { ways, ids } = await walk(`limit=3&published_before=2026-09-30T23:59:${second}Z`);
    expect(ids).toEqual(expectedIds);
    // The first page by digest (its three texts read once: the second walk holds them)...
    expect(ways[0]).toEqual(second === '59' ? ['digests', 'mget'] : ['digests']);
    // ...the pages after it with their texts, from one search that reads ahead (readAhead),
    // kept by nobody: the second walk reads them again.
    expect(ways.slice(1)).toEqual([['texts'], ...Array.from({ length: 8 }, () => [])]);
  }
});

it('first pages whose records nobody read go with their texts, and learn back', async () => {
  // 24 records a day apart in August, each the first record of its own filter (published before
  // its day's end): a run of first pages that hold nothing.
  const august = Array.from({ length: 24 }, (_, i) =>
    makeRecord({ published_at: `2026-08-${String(i + 1).padStart(2, '0')}T00:00:00Z` }),
  );
  await storeAndIndex(ctx.deps, august);
  const firstPages = async (second: string) => {
    const ways: string[][] = [];
    for (const record of august) {
      const day = (record.published_at as string).slice(0, 10);
      ways.push(
        await engineReads(async () => {
          const text = await listText(`limit=1&published_before=${day}T23:59:${second}Z`);
          expect(text).toContain(`{"data":[${await storedTexts([record.id])}],`);
        }),
      );
    }
    return ways;
  };
  const unread = await firstPages('59');
  expect(unread[0]).toEqual(['digests', 'mget']);
  // The misses turn it: the last pages read their texts in the search itself, and keep them.
  expect(unread.slice(-4)).toEqual(Array.from({ length: 4 }, () => ['texts']));
  // The same records again (other filters, so no result cache): held, so by digest again.
  const kept = await firstPages('58');
  expect(kept.slice(-4)).toEqual(Array.from({ length: 4 }, () => ['digests']));
});

it('serves an index of older code (no digests as doc values) from its stored texts', async () => {
  await aliasOnOlderIndex(ctx.deps, records, 5);
  expect((await liveFeatures(ctx.deps.search, ctx.deps.alias)).digestValues).toBe(false);
  let text = '';
  const reads = await engineReads(async () => {
    text = await listText('limit=4&level=senior');
  });
  expect(reads).toEqual(['texts']);
  const senior = listed.filter((r) => r.level === 'senior').slice(0, 4);
  expect(senior.length).toBeGreaterThan(0);
  // The older index holds the fixture's records as first indexed (the rename is not in it).
  expect(text).toContain(`{"data":[${senior.map((r) => JSON.stringify(r)).join(',')}],`);
});
