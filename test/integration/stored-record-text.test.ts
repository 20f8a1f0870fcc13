import type { Opportunity } from '../../src/domain/record';
import { liveMappingVersion, MAPPING_VERSION } from '../../src/search/index-definition';
import { servedText } from '../../src/search/stored-text';
import { reindex } from '../../src/search/sync';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { aliasOnLegacyIndex, indexLegacyDocuments } from '../support/legacy-index';
import { metricSample } from '../support/metric-sample';
import { get, newReader, type Reader } from '../support/read-http';

// A list page is spliced from each record's JSON text stored in the index
// (mapping 4), not parsed and serialized again. The records served must be the stored records,
// whether the index holds the stored texts or is an index of older code holding record objects
// (not yet rebuilt), and `fields` must still shape each record.

let ctx: TestContext;
let reader: Reader;
let stored: Opportunity[];

const records = Array.from({ length: 5 }, (_, i) =>
  makeRecord({
    published_at: `2026-10-0${i + 1}T00:00:00Z`,
    title: ['Rust "engineer" \u2028 <script>\\', 'Data \u00e9t\u00e9 \ud83d\ude80', 'Plain'][i % 3],
  }),
);

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, records);
  reader = await newReader(ctx.deps);
  // The records as the store holds them (jsonb's key order): the source of every index version.
  const { rows } = await ctx.deps.pool.query<{ record: Opportunity }>(
    'SELECT record FROM opportunities WHERE deleted_at IS NULL',
  );
  const byId = new Map(rows.map((r) => [r.record.id, r.record]));
  stored = [...records].reverse().map((r) => byId.get(r.id) as Opportunity);
});
afterAll(() => ctx.close());

const PATH = '/v1/opportunities?limit=3';
const FIELDS_PATH = '/v1/opportunities?limit=3&fields=title,rate';

async function page(path: string) {
  const res = await get(ctx.baseUrl, path, { key: reader.key });
  expect(res.status).toBe(200);
  return { res };
}

it('indexes each record as its JSON text and digest, and not as an object', async () => {
  const { search, alias } = ctx.deps;
  const res = await search.get({ index: alias, id: stored[0]?.id as string });
  const source = res.body._source as Record<string, unknown>;
  // Mapping 7: the stored source is the served text and nothing else (every other field is
  // indexed, not stored), so a page's fetch copies it as stored.
  expect(Object.keys(source).sort()).toEqual(['id', 'record_digest', 'record_json']);
  expect(source.record).toBeUndefined();
  // The text is kept in ASCII (search/stored-text.ts): the same JSON, its non-ASCII escaped.
  const text = source.record_json as string;
  expect(text).toMatch(/^[ -\x7f]*$/);
  expect(JSON.parse(text)).toEqual(stored[0]);
  expect(servedText(text)).toBe(JSON.stringify(stored[0]));
  expect(source.record_digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

it('serves the texts as JSON.stringify writes them, not as the index keeps them', async () => {
  const { res } = await page(PATH);
  const body = res.text;
  const served = (JSON.parse(body) as { data: Opportunity[] }).data;
  expect(served.some((r) => /[\u0080-\uffff]/.test(r.title))).toBe(true);
  // Each record's text spliced into the reply is exactly JSON.stringify of the record.
  for (const record of served) expect(body).toContain(JSON.stringify(record));
  expect(body).toContain('Data \u00e9t\u00e9 \ud83d\ude80');
});

it('parses no record for a page of whole records, and each record once for the same fields', async () => {
  const texts = new Set(stored.map((r) => JSON.stringify(r)));
  const parse = jest.spyOn(JSON, 'parse');
  const recordParses = () =>
    parse.mock.calls.filter(([text]) => typeof text === 'string' && texts.has(text)).length;
  try {
    // New filters each time, so the pages come from the engine, not the search cache.
    await page('/v1/opportunities?limit=3&country=US');
    expect(recordParses()).toBe(0);
    await page('/v1/opportunities?limit=3&country=US&fields=title');
    expect(recordParses()).toBe(3);
    // The same records from another search, with the same fields (in another order): the sparse
    // records are kept by digest and fields (service/shaped-records.ts), so nothing is parsed.
    const kept = () => metricSample(ctx.baseUrl, 'sparse_records_total', { source: 'kept' });
    const keptBefore = await kept();
    const again = await page('/v1/opportunities?limit=3&rate_min=0&fields=id,title');
    expect(recordParses()).toBe(3);
    expect(await kept()).toBe(keptBefore + 3);
    expect(await metricSample(ctx.baseUrl, 'sparse_records_held_characters')).toBeGreaterThan(0);
    expect(again.res.body.data).toEqual(
      stored.slice(0, 3).map((r) => ({ id: r.id, title: r.title })),
    );
    // Other fields are another projection: each record is parsed once more.
    await page('/v1/opportunities?limit=3&rate_min=1&fields=rate');
    expect(recordParses()).toBe(6);
  } finally {
    parse.mockRestore();
  }
});

it('serves the same records from an index of older code and from the stored texts', async () => {
  const { search, alias, taxonomy } = ctx.deps;
  const legacy = await aliasOnLegacyIndex(search, alias);
  await indexLegacyDocuments(search, legacy, stored, taxonomy);
  expect(await liveMappingVersion(search, alias)).toBe(1);
  const old = await page(PATH);
  const oldSparse = await page(FIELDS_PATH);
  // Older documents are served right: the records as stored, in list order. (Their key order is
  // the one the engine's source filtering gives: JSON objects are unordered.)
  expect(old.res.body.data).toEqual(stored.slice(0, 3));

  await reindex(ctx.deps);
  expect(await liveMappingVersion(search, alias)).toBe(MAPPING_VERSION);
  const current = await page(PATH);
  // The stored texts, spliced as they are: the records' bytes as the store gives them, the same
  // as a detail response's.
  expect(current.res.text).toContain(
    `{"data":[${stored
      .slice(0, 3)
      .map((r) => JSON.stringify(r))
      .join(',')}],"pagination":`,
  );
  expect(current.res.body.pagination).toEqual(old.res.body.pagination);
  expect(current.res.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{32}"$/);

  // fields shapes each record the same whichever index served it, in the record field order.
  const sparse = await page(FIELDS_PATH);
  const fieldsOf = (data: object[]) => data.map((r) => Object.keys(r));
  expect(fieldsOf(sparse.res.body.data)).toEqual(fieldsOf(oldSparse.res.body.data));
  expect(sparse.res.body).toEqual({ ...oldSparse.res.body, meta: sparse.res.body.meta });
  expect(sparse.res.body.data).toEqual(
    stored.slice(0, 3).map((r) => ({ id: r.id, title: r.title, rate: r.rate })),
  );

  // The next page follows from the stored texts' positions.
  const next = await get(
    ctx.baseUrl,
    `${PATH}&cursor=${encodeURIComponent(current.res.body.pagination.next_cursor as string)}`,
    { key: reader.key },
  );
  expect(next.body.data).toEqual(stored.slice(3));
});
