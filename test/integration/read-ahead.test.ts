import type { Opportunity } from '../../src/domain/record';
import { engineReads, walk, type Walked } from '../support/engine-reads';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { metricSample } from '../support/metric-sample';
import { expectError, get, newReader, type Reader } from '../support/read-http';
import { startGate, type Gate } from '../support/tcp-forwarder';

// A page after a cursor reads the pages after it in the same search (OpenSearchIndex.readAhead):
// a walk by cursor asks the engine once per hundred hits, not once per page. What it serves must be
// what a walk without read-ahead serves: the same records in the same order, each charged once,
// and a change of the index made between two pages seen by the next page at once. The app reaches
// the engine through a gate the last test shuts (contract §20.5).

let ctx: TestContext;
/** The app's way to the engine. */
let engine: Gate;

/** 45 records, one a day; the list order is newest first. */
const records = Array.from({ length: 45 }, (_, i) =>
  makeRecord({
    published_at: new Date(Date.UTC(2026, 5, 1 + i)).toISOString(),
    title: `Walked role ${i}`,
  }),
);
const listed = [...records].reverse();
const listedIds = listed.map((r) => r.id);

beforeAll(async () => {
  const url = new URL(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200');
  engine = await startGate(Number(url.port), url.hostname);
  ctx = await createTestContext({ OPENSEARCH_URL: `http://127.0.0.1:${engine.port}` });
  await storeAndIndex(ctx.deps, records);
  // Nothing is kept while the process knows no index generation (it listens from the first call).
  const generation = ctx.deps.searchCache?.generation;
  while (generation?.current() === null) await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  await ctx.close();
  await engine.close();
});

/** The read-ahead's counters of /metrics (src/infra/metrics.ts). */
async function readAheadMetrics(): Promise<{ kept: number; served: number }> {
  const counter = (outcome: string) =>
    metricSample(ctx.baseUrl, 'list_pages_read_ahead_total', { outcome });
  return { kept: await counter('kept'), served: await counter('served') };
}

async function used(key: string): Promise<number> {
  const res = await get(ctx.baseUrl, '/v1/usage', { key });
  expect(res.status).toBe(200);
  return (res.body as { opportunities: { used: number } }).opportunities.used;
}

/** A walk by a new reader, with the size of every search it made. */
async function walkSized(
  query: string,
): Promise<{ walked: Walked; sizes: number[]; reader: Reader }> {
  const reader = await newReader(ctx.deps);
  const sizes: number[] = [];
  let walked: Walked = { ways: [], pages: [], ids: [] };
  await engineReads(
    ctx,
    async () => {
      walked = await walk(ctx, reader, query);
    },
    sizes,
  );
  return { walked, sizes, reader };
}

it('one search serves the pages after a cursor, each charged once, as a walk without it would', async () => {
  const before = await readAheadMetrics();
  const { walked, sizes, reader } = await walkSized(
    'limit=10&published_after=2026-01-01T00:00:00Z',
  );
  expect(walked.ids).toEqual(listedIds);
  expect(walked.pages.map((p) => p.length)).toEqual([10, 10, 10, 10, 5]);
  // The first page as always; the second reads 100 hits past its cursor and one more, which
  // hold pages two to five: those three ask the engine nothing.
  expect(walked.ways.slice(1)).toEqual([['texts'], [], [], []]);
  expect(sizes.slice(1)).toEqual([101]);
  const after = await readAheadMetrics();
  expect([after.kept - before.kept, after.served - before.served]).toEqual([3, 3]);
  expect(await used(reader.key)).toBe(45);

  // Each record served is the record the first page of a list holding all of them serves.
  const whole = await get(ctx.baseUrl, '/v1/opportunities?limit=45', { key: reader.key });
  expect(walked.pages.flat()).toEqual((whole.body as { data: Opportunity[] }).data);
});

it('reads ahead a walk in relevance order too, whose positions hold the score', async () => {
  const reader = await newReader(ctx.deps);
  const walked = await walk(ctx, reader, 'q=walked&sort=relevance&limit=10');
  const whole = await get(ctx.baseUrl, '/v1/opportunities?q=walked&sort=relevance&limit=100', {
    key: reader.key,
  });
  expect(walked.ids).toEqual((whole.body as { data: Opportunity[] }).data.map((r) => r.id));
  expect(walked.ids).toHaveLength(45);
  expect(walked.ways.slice(1)).toEqual([['texts'], [], [], []]);
});

it('a change of the index between two pages is in the next page', async () => {
  const reader = await newReader(ctx.deps);
  const renamed = listed[25] as Opportunity; // on page three of ten
  const inserted = makeRecord({
    published_at: new Date(Date.UTC(2026, 5, 1 + 45 - 35, 12)).toISOString(), // on page four
    title: 'Inserted while walking',
  });
  const walked = await walk(ctx, reader, 'limit=10&published_after=2026-01-02T00:00:00Z', {
    between: async (page) => {
      if (page !== 2) return;
      await storeAndIndex(ctx.deps, [{ ...renamed, title: 'Renamed while walking' }, inserted]);
    },
  });
  // Page three was read ahead with page two, before the change: it is read again.
  expect(walked.ways[2]).toEqual(['texts']);
  const byId = new Map(walked.pages.flat().map((r) => [r.id, r]));
  expect(byId.get(renamed.id)?.title).toBe('Renamed while walking');
  expect(byId.get(inserted.id)?.title).toBe('Inserted while walking');
  // The 45 records and the inserted one, each once and each charged once.
  expect(walked.ids).toHaveLength(46);
  expect(new Set(walked.ids).size).toBe(46);
  expect(await used(reader.key)).toBe(46);
});

it('another page size or filter does not take a page read ahead for a walk', async () => {
  const reader = await newReader(ctx.deps);
  const first = await walk(ctx, reader, 'limit=10&published_after=2026-01-03T00:00:00Z', {
    maxPages: 2,
  });
  expect(first.ways[1]).toEqual(['texts']);
  // The same position by another walk of another page size reads its own pages.
  const other = await walk(ctx, reader, 'limit=20&published_after=2026-01-03T00:00:00Z', {
    maxPages: 2,
  });
  expect(other.ways[1]).toEqual(['texts']);
  expect(other.ids.slice(0, 20)).toEqual(first.ids);
  expect(new Set(other.ids).size).toBe(40);
});

it('an unseen_only walk is not read ahead: its pages change with each delivery', async () => {
  const { walked, sizes } = await walkSized('limit=10&unseen_only=true');
  // The whole store (45 records and the one inserted above), each once: pages after a cursor to
  // look at, so the checks below cannot pass on a walk of one page.
  expect(walked.ids.length).toBeGreaterThanOrEqual(45);
  expect(walked.ids).toHaveLength(new Set(walked.ids).size);
  for (const way of walked.ways.slice(1)) expect(way).toContain('texts');
  expect(sizes.every((size) => size === 11)).toBe(true);
});

it('while the engine is unreachable, a page read ahead is served and charged; a search is refused, free', async () => {
  const reader = await newReader(ctx.deps);
  const list = (query: string) =>
    get(ctx.baseUrl, `/v1/opportunities?${query}`, { key: reader.key });
  const walking = 'limit=10&published_after=2026-01-05T00:00:00Z';
  const first = await list(walking);
  const cursor = (res: typeof first) =>
    encodeURIComponent(
      (res.body as { pagination: { next_cursor: string } }).pagination.next_cursor,
    );
  const second = await list(`${walking}&cursor=${cursor(first)}`); // reads pages three to five ahead
  expect(second.status).toBe(200);

  engine.shut({ dropOpen: true });
  try {
    const third = await list(`${walking}&cursor=${cursor(second)}`);
    expect(third.status).toBe(200);
    expect((third.body as { data: unknown[] }).data).toHaveLength(10);
    expect(third.headers.get('x-service-new-opportunity-count')).toBe('10');
    expect(third.headers.get('x-service-opportunity-used')).toBe('30');
    // A page no memory holds needs the engine: 503, and nothing more is charged (contract §20.5).
    const other = await list('limit=10&published_after=2026-01-06T00:00:00Z');
    expectError(other, 503, 'search_unavailable');
    expect(await used(reader.key)).toBe(30);
  } finally {
    engine.reopen();
  }
  expect((await list('limit=10&published_after=2026-01-06T00:00:00Z')).status).toBe(200);
});
