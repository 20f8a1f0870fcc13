import {
  HISTOGRAM_FIELDS,
  HISTOGRAM_INTERVALS,
  compareRateStats,
} from '../../src/domain/aggregates';
import { FACET_DIMENSIONS, type FacetDimension } from '../../src/domain/facets';
import { parseRestQuery, type Filter } from '../../src/domain/filters';
import { deliveredByIds, type DeliveredRecords } from '../../src/domain/delivered-records';
import { MemoryIndex } from '../../src/search/memory-index';
import { RoaringSet } from '../../src/infra/roaring';
import { OpenSearchIndex } from '../../src/search/opensearch-index';
import type { OpportunityIndex, PageQuery } from '../../src/search/opportunity-index';
import { pgChangeLog } from '../../src/store/changes-repo';
import { PLANS } from '../../src/store/memory-accounts';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { HOSTILE_QUERIES, KEYWORD_CASES, KEYWORD_FIXTURE } from '../support/keyword-fixture';
import { FIXTURE, idsOf, type Query } from '../support/read-fixture';

// The in-memory opportunity index (the fast suite's) must give OpenSearch's answers.
// The same questions go to both over the read fixture: counts, every page of a keyset walk with
// its positions, preview's live-only pages, exclusions (unseen_only, new_count) and facets.

let ctx: TestContext;
let real: OpportunityIndex;
let memory: MemoryIndex;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...FIXTURE, ...KEYWORD_FIXTURE]);
  // No result cache: every answer comes from the engine.
  real = new OpenSearchIndex(ctx.deps.search, ctx.deps.alias, ctx.deps.taxonomy);
  memory = new MemoryIndex(ctx.deps.taxonomy);
  memory.put([...FIXTURE, ...KEYWORD_FIXTURE]);
});
afterAll(() => ctx.close());

/**
 * The records as the meter hands them over: their numbers as a bitmap, their ids on demand; with
 * `recent`, that many of the numbers beside the bitmap instead of in it (delivered since it was
 * made, billing/delivered-cache.ts).
 */
async function deliveredByNumber(
  delivered: readonly string[],
  recent = 0,
): Promise<DeliveredRecords> {
  const { rows } = await ctx.deps.pool.query<{ record_num: number }>(
    'SELECT record_num FROM opportunities WHERE id = ANY($1::uuid[])',
    [delivered],
  );
  expect(rows).toHaveLength(delivered.length);
  const nums = rows.map((r) => r.record_num);
  const bitmap = new RoaringSet(nums.slice(recent)).toBase64();
  // Asked for ids, it fails: the numbered index must not need them.
  const ids = async (): Promise<never> => {
    throw new Error('asked for ids');
  };
  return { count: rows.length, bitmap, recent: nums.slice(0, recent), ids };
}

/** Every filter parameter of contract §6.1 at least once, as a client spells it, and mixes. */
const QUERIES: Query[] = [
  {},
  { published_after: '2026-09-05' },
  { published_before: '2026-09-10T12:00:00Z' },
  { fresh_after: '2026-09-20' },
  { job_domain: 'software_data_ai' },
  { job_family: 'data' },
  { job_family: 'data,software_engineering', job_subfamily: 'data_engineering' },
  { job_subfamily: 'backend_engineering,devops_engineering' },
  { job_class: 'react_developer,devops_engineer' },
  { normalized_title: 'Data Scientist' },
  { level: 'senior,staff' },
  { management_track: 'people_manager' },
  { specializations: 'DBT' },
  { engagement_model: 'c2c' },
  { commercial_eligibility: 'eligible' },
  { actionability: 'actionable' },
  { remote: 'false' },
  { country: 'us' },
  { city: 'austin' },
  { state: 'tx' },
  { region: 'California' },
  { rate_min: '90' },
  { rate_max: '80.5' },
  { currency: 'eur' },
  { pay_basis: 'hourly,daily' },
  { work_structure: 'ongoing_contract' },
  { source: 'LEVER' },
  { liveness_status: 'live' },
  { first_seen_after: '2026-09-08' },
  { changed_since: '2026-09-15' },
  { country: 'US', remote: 'true', rate_min: '85' },
  { job_family: 'data', liveness_status: 'dead' },
];

const filterOf = (q: Query): Filter =>
  parseRestQuery('count', q, { taxonomy: ctx.deps.taxonomy }).filter;

/** Every page of a keyset walk: ids, positions and hasMore of each. */
async function walk(index: OpportunityIndex, query: Omit<PageQuery, 'searchAfter'>) {
  const pages = [];
  let searchAfter: PageQuery['searchAfter'];
  for (;;) {
    const page = await index.page({ ...query, searchAfter });
    pages.push({ ids: idsOf(page.records), positions: page.positions, hasMore: page.hasMore });
    searchAfter = page.positions[page.positions.length - 1];
    if (!page.hasMore || !searchAfter) return pages;
  }
}

const label = (q: Query) => JSON.stringify(q);

describe.each(QUERIES.map((q) => [label(q), q] as const))('filters %s', (_label, q) => {
  it('count and every page agree', async () => {
    const filter = filterOf(q);
    const count = await real.count(filter);
    // Every query selects something, so agreement is never about two empty answers.
    expect(count).toBeGreaterThan(0);
    expect(await memory.count(filter)).toBe(count);
    expect(await walk(memory, { filter, limit: 7 })).toEqual(
      await walk(real, { filter, limit: 7 }),
    );
  });

  it('live-only pages, exclusions and new_count agree', async () => {
    const filter = filterOf(q);
    const preview = { filter, limit: 5, liveOnly: true };
    expect(await walk(memory, preview)).toEqual(await walk(real, preview));
    // The engine leaves delivered records out by record number (a roaring bitmap) and, for an
    // index without numbers, by id; the memory index by id. All three agree.
    const excluded = idsOf(FIXTURE.filter((_, i) => i % 3 === 0));
    const byNumber = await deliveredByNumber(excluded);
    const someRecent = await deliveredByNumber(excluded, Math.ceil(excluded.length / 2));
    const byId = deliveredByIds(excluded);
    const unseen = await walk(memory, { filter, limit: 10, exclude: byId });
    expect(await walk(real, { filter, limit: 10, exclude: byNumber })).toEqual(unseen);
    expect(await walk(real, { filter, limit: 10, exclude: someRecent })).toEqual(unseen);
    expect(await walk(real, { filter, limit: 10, exclude: byId })).toEqual(unseen);
    const newCount = await memory.newCount(filter, byId);
    expect(await real.newCount(filter, byNumber)).toBe(newCount);
    expect(await real.newCount(filter, someRecent)).toBe(newCount);
    expect(await real.newCount(filter, byId)).toBe(newCount);
  });
});

// contract §7.2, §7.3: the keyword search over titles chosen for stemming, synonyms, phrases, exclusion
// and OR (keyword-fixture.ts), alone and with filters. The in-memory analysis is cruder than the
// engine's; these are the cases where the fast suite relies on it agreeing.
const KEYWORD_QUERIES: Query[] = [
  ...KEYWORD_CASES.map(([, q]) => ({ q })),
  { q: 'developer', job_family: 'software_engineering' },
  { q: 'engineer -data', remote: 'false', level: 'senior' },
  { q: '"data engineer" OR snowflake', liveness_status: 'live' },
];

describe.each(KEYWORD_QUERIES.map((q) => [label(q), q] as const))('keywords %s', (_label, q) => {
  it('count and every page agree, freshness order', async () => {
    const filter = filterOf(q);
    expect(await memory.count(filter)).toBe(await real.count(filter));
    expect(await walk(memory, { filter, limit: 4 })).toEqual(
      await walk(real, { filter, limit: 4 }),
    );
  });

  it('sort=relevance visits the same records once', async () => {
    const filter = { ...filterOf(q), sort: 'relevance' as const };
    const ids = async (index: OpportunityIndex) =>
      (await walk(index, { filter, limit: 3 })).flatMap((p) => p.ids);
    const [fromMemory, fromEngine] = [await ids(memory), await ids(real)];
    expect(new Set(fromEngine).size).toBe(fromEngine.length);
    // Scores differ (BM25 against a boost sum): the sets agree, not the order.
    expect([...fromMemory].sort()).toEqual([...fromEngine].sort());
  });
});

it.each(HOSTILE_QUERIES.map((q) => [q]))('hostile q=%s: both answer, alike', async (q) => {
  const filter = filterOf({ q });
  expect(await memory.count(filter)).toBe(await real.count(filter));
});

const PAIRS: FacetDimension[][] = [
  ['job_family', 'level'],
  ['country', 'remote'],
  ['work_structure', 'source'],
  ['currency', 'pay_basis'],
];

const FACET_FILTERS: Query[] = [{}, { country: 'US' }, { job_family: 'data', remote: 'true' }];

describe.each(FACET_FILTERS)('facets with filters %j', (q) => {
  it.each([...FACET_DIMENSIONS.map((d) => [d]), ...PAIRS].map((dims) => [dims.join('+'), dims]))(
    'group_by=%s agrees, default and small group_limit',
    async (_label, dims) => {
      const filter = filterOf(q);
      for (const limit of [10, 2]) {
        expect(await memory.facets(filter, dims, limit)).toEqual(
          await real.facets(filter, dims, limit),
        );
      }
    },
  );
});

describe.each(FACET_FILTERS)('histograms and rate statistics with filters %j', (q) => {
  // contract §10.4, §10.5: the raw figures (non-empty buckets, unordered statistics) of both indexes.
  it.each(HISTOGRAM_FIELDS.flatMap((f) => HISTOGRAM_INTERVALS.map((i) => [f, i] as const)))(
    'histogram=%s interval=%s and stats=rate agree',
    async (field, interval) => {
      const filter = filterOf(q);
      const query = { histogram: { field, interval }, rateStats: true };
      const [mine, theirs] = [
        await memory.aggregates(filter, query),
        await real.aggregates(filter, query),
      ];
      expect(mine.histogram).toEqual(theirs.histogram);
      expect(mine.histogram?.length).toBeGreaterThan(0);
      expect(mine.rateStats?.sort(compareRateStats)).toEqual(
        theirs.rateStats?.sort(compareRateStats),
      );
      expect(mine.rateStats?.length).toBeGreaterThan(0);
    },
  );
});

describe('the change log (change feed)', () => {
  // The store's change log (Postgres, bounded by the alias's sync watermark) and the in-memory
  // one: the same rows in the same order, from the start, from a position and from a since.
  const rowsOf = (rows: { id: string; seq: number; deletedAt: Date | null }[]) =>
    rows.map((r) => ({ id: r.id, deleted: r.deletedAt !== null }));

  it.each([
    { after: 0, since: null, limit: 1000 },
    { after: 0, since: null, limit: 3 },
    { after: 0, since: new Date('2026-09-15T00:00:00Z'), limit: 1000 },
  ])('read %j', async (q) => {
    const store = pgChangeLog(ctx.deps.pool, ctx.deps.alias);
    expect(rowsOf(await memory.read(q))).toEqual(rowsOf(await store.read(q)));
  });

  it('from a position: the rows after the n-th change', async () => {
    const store = pgChangeLog(ctx.deps.pool, ctx.deps.alias);
    const all = await store.read({ after: 0, since: null, limit: 1000 });
    const memoryAll = await memory.read({ after: 0, since: null, limit: 1000 });
    const n = 5;
    const tail = await store.read({ after: all[n - 1]?.seq ?? 0, since: null, limit: 1000 });
    const memoryTail = await memory.read({
      after: memoryAll[n - 1]?.seq ?? 0,
      since: null,
      limit: 1000,
    });
    expect(rowsOf(memoryTail)).toEqual(rowsOf(tail));
    expect(tail).toHaveLength(FIXTURE.length + KEYWORD_FIXTURE.length - n);
  });
});

describe('the plans (contract §15.1)', () => {
  it('the in-memory accounts bill by the same plans as the store', async () => {
    const { rows } = await ctx.deps.pool.query<Record<string, unknown>>(
      `SELECT id, label, opportunity_allowance, period_kind, requests_per_second, max_page_size
         FROM plans ORDER BY id`,
    );
    const memoryPlans = Object.values(PLANS).sort((a, b) => a.id.localeCompare(b.id));
    expect(memoryPlans).toEqual(rows);
  });
});
