import {
  MAPPING_VERSION,
  liveHasRecordNumbers,
  liveMappingVersion,
} from '../../src/search/index-definition';
import { reindex } from '../../src/search/sync';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { aliasOnOlderIndex } from '../support/legacy-index';
import { FIXTURE, expected, idsOf, qs, type Query } from '../support/read-fixture';
import { get, listAll, newReader, type Reader } from '../support/read-http';

// New_count and unseen_only leave delivered records out by record number, a
// field of mapping 5. An index built by older code (mapping 4) has no numbers until its rebuild
// (local mode's start, `cli reindex` in production): meanwhile both stay exact (by id), and the
// rebuild carries every record's number.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...FIXTURE]);
  await aliasOnOlderIndex(ctx.deps, FIXTURE, 4);
});
afterAll(() => ctx.close());

const newCount = async (reader: Reader, q: Query) => {
  const res = await get(
    ctx.baseUrl,
    `/v1/opportunities/count?${qs({ ...q, include: 'new_count' })}`,
    {
      key: reader.key,
    },
  );
  expect(res.status).toBe(200);
  return res.body.new_count;
};

/** What new_count and unseen_only must answer after `delivered` were received. */
async function expectExact(reader: Reader, delivered: ReadonlySet<string>) {
  for (const q of [{}, { level: 'senior' }, { job_family: 'data' }] as Query[]) {
    const unseen = expected(q).filter((r) => !delivered.has(r.id));
    expect(await newCount(reader, q)).toBe(unseen.length);
  }
  // Listing unseen_only delivers what it lists, so it comes last.
  const { records } = await listAll(ctx.baseUrl, reader.key, qs({ unseen_only: 'true' }));
  expect(idsOf(records).sort()).toEqual(idsOf(FIXTURE.filter((r) => !delivered.has(r.id))).sort());
}

it('on an index of the mapping before, new_count and unseen_only stay exact', async () => {
  expect(await liveMappingVersion(ctx.deps.search, ctx.deps.alias)).toBe(4);
  expect(MAPPING_VERSION).toBeGreaterThan(4);
  expect(await liveHasRecordNumbers(ctx.deps.search, ctx.deps.alias)).toBe(false);
  const reader = await newReader(ctx.deps);
  const { records } = await listAll(ctx.baseUrl, reader.key, qs({ level: 'senior' }));
  expect(records.length).toBeGreaterThan(0);
  await expectExact(reader, new Set(idsOf(records)));
});

it('the rebuild carries every record number; then the same answers, by number', async () => {
  const reader = await newReader(ctx.deps);
  const { records } = await listAll(ctx.baseUrl, reader.key, qs({ job_family: 'data' }));
  await reindex(ctx.deps);
  expect(await liveHasRecordNumbers(ctx.deps.search, ctx.deps.alias)).toBe(true);
  const stored = await ctx.deps.pool.query<{ id: string; record_num: number }>(
    'SELECT id, record_num FROM opportunities',
  );
  // The numbers are doc values (the stored source holds only the served text since mapping 7).
  const res = await ctx.deps.search.search({
    index: ctx.deps.alias,
    body: {
      size: 1000,
      _source: ['id'],
      docvalue_fields: ['record_num'],
      query: { match_all: {} },
    },
  } as never);
  type Hit = { _source: { id: string }; fields: { record_num: [number] } };
  const indexed = (res.body.hits.hits as Hit[]).map((h) => ({
    id: h._source.id,
    record_num: h.fields.record_num[0],
  }));
  expect(new Map(indexed.map((d) => [d.id, d.record_num]))).toEqual(
    new Map(stored.rows.map((r) => [r.id, r.record_num])),
  );
  await expectExact(reader, new Set(idsOf(records)));
});
