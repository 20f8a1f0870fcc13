import type { Opportunity } from '../../src/domain/record';
import { liveFeatures } from '../../src/search/live-mapping';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { aliasOnOlderIndex } from '../support/legacy-index';
import { get, newReader, type Reader } from '../support/read-http';

// A list page asks the engine for its hits' sort values and digests only (doc values, mapping 6)
// and takes each record's text from the process's record texts when the digest matches, from one
// multi-get otherwise (search/record-texts.ts). What is served must be exactly what the index
// holds: a record changed since its text was kept is read again, never served stale; an index
// of older code (no digests as doc values) is served from its stored texts as before.

let ctx: TestContext;
let reader: Reader;

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
});
afterAll(() => ctx.close());

/** The paths of the engine requests made while `run` runs (the app shares the test's client). */
async function engineRequests(run: () => Promise<void>): Promise<string[]> {
  const paths: string[] = [];
  const seen = (_err: unknown, result: { meta?: { request?: { params?: { path?: string } } } }) => {
    const path = result?.meta?.request?.params?.path;
    if (path) paths.push(path);
  };
  ctx.deps.search.on('response', seen);
  try {
    await run();
  } finally {
    ctx.deps.search.off('response', seen);
  }
  return paths;
}

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

/** The page's reads of the engine (a first question to the mapping per generation aside). */
const kinds = (paths: string[]) =>
  paths.flatMap((p) =>
    p.endsWith('/_mget') ? ['mget'] : p.endsWith('/_search') ? ['search'] : [],
  );

it('reads digests only, then the texts it does not hold, once', async () => {
  expect(await liveFeatures(ctx.deps.search, ctx.deps.alias)).toEqual({
    recordNumbers: true,
    digestValues: true,
  });
  let first = '';
  // A filter no cache has seen, whose records no page has served yet: one multi-get.
  expect(
    kinds(await engineRequests(async () => void (first = await listText('limit=3&country=US')))),
  ).toEqual(['search', 'mget']);
  const us = listed.filter((r) => r.location.country === 'US');
  expect(first).toContain(`{"data":[${await storedTexts(us.slice(0, 3).map((r) => r.id))}],`);

  // Another filter (not in the page cache) over the same records: no multi-get at all.
  let again = '';
  expect(
    kinds(
      await engineRequests(
        async () => void (again = await listText('limit=3&country=US&remote=false')),
      ),
    ),
  ).toEqual(['search']);
  expect(again).toContain(`{"data":[${await storedTexts(us.slice(0, 3).map((r) => r.id))}],`);

  // A page of kept and new records reads only the new ones.
  let all = '';
  expect(kinds(await engineRequests(async () => void (all = await listText('limit=8'))))).toEqual([
    'search',
    'mget',
  ]);
  expect(all).toContain(`{"data":[${await storedTexts(listed.map((r) => r.id))}],`);
});

it('serves a record changed since its text was kept as the index now holds it', async () => {
  const newest = listed[0] as Opportunity;
  await listText('limit=2'); // the text is kept
  await storeAndIndex(ctx.deps, [{ ...newest, title: 'Renamed "senior" role \ud83d\ude80' }]);
  let text = '';
  expect(kinds(await engineRequests(async () => void (text = await listText('limit=2'))))).toEqual([
    'search',
    'mget',
  ]);
  expect(text).toContain('Renamed \\"senior\\" role');
  expect(text).toContain(`{"data":[${await storedTexts(listed.slice(0, 2).map((r) => r.id))}],`);
});

it('serves an index of older code (no digests as doc values) from its stored texts', async () => {
  await aliasOnOlderIndex(ctx.deps, records, 5);
  expect((await liveFeatures(ctx.deps.search, ctx.deps.alias)).digestValues).toBe(false);
  let text = '';
  const paths = await engineRequests(
    async () => void (text = await listText('limit=4&level=senior')),
  );
  expect(kinds(paths)).toEqual(['search']);
  const senior = listed.filter((r) => r.level === 'senior').slice(0, 4);
  expect(senior.length).toBeGreaterThan(0);
  // The older index holds the fixture's records as first indexed (the rename is not in it).
  expect(text).toContain(`{"data":[${senior.map((r) => JSON.stringify(r)).join(',')}],`);
});
