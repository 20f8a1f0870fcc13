import { Client } from 'pg';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE, expected, idsOf, qs, type Query } from '../support/read-fixture';
import { expectError, get, listAll, newReader, type Reader } from '../support/read-http';

// contract §10.3 over HTTP: new_count and new_cost_millicents against an oracle (the fixture minus
// what the account was served), also past 65,536 deliveries; unseen_only paging; max_new budgets,
// paging that skips nothing, and budgets held under parallel pages.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...FIXTURE]);
});
afterAll(() => ctx.close());

const count = (reader: Reader, q: Query) =>
  get(ctx.baseUrl, `/v1/opportunities/count?${qs({ ...q, include: 'new_count' })}`, {
    key: reader.key,
  });
const list = (reader: Reader, q: Query) =>
  get(ctx.baseUrl, `/v1/opportunities?${qs(q)}`, { key: reader.key });
const newHeader = (res: { headers: Headers }) =>
  Number(res.headers.get('x-service-new-opportunity-count'));

/** Lists every record of q (all pages), so the account has received them this period. */
async function receive(reader: Reader, q: Query): Promise<string[]> {
  const { records } = await listAll(ctx.baseUrl, reader.key, qs(q));
  return idsOf(records);
}

const QUERIES: Query[] = [
  {},
  { level: 'senior' },
  { job_family: 'data' },
  { country: 'US', remote: 'true' },
  { work_structure: 'ongoing_contract' },
];

describe('include=new_count', () => {
  it('equals the matching records not yet delivered this period, and stays free', async () => {
    const reader = await newReader(ctx.deps);
    const delivered = new Set<string>();
    for (const step of [{ level: 'senior' }, { job_family: 'data', level: 'staff' }] as Query[]) {
      for (const q of QUERIES) {
        const res = await count(reader, q);
        expect(res.status).toBe(200);
        const oracle = expected(q).filter((r) => !delivered.has(r.id)).length;
        expect(res.body).toMatchObject({
          count: expected(q).length,
          new_count: oracle,
          new_cost_millicents: 0,
        });
        expect(newHeader(res)).toBe(0);
      }
      for (const id of await receive(reader, step)) delivered.add(id);
    }
  });

  it('prices what the included allowance does not cover, by billing model', async () => {
    const all = expected({}).length;
    const plan = await newReader(ctx.deps, {
      plan: 'builder',
      allowance_override: 5,
      balance_millicents: 100_000,
    });
    await list(plan, { limit: '2' });
    const res = await count(plan, {});
    expect(res.body).toMatchObject({ new_count: all - 2, new_cost_millicents: (all - 5) * 400 });

    const wallet = await newReader(ctx.deps, {
      billing_model: 'legacy_wallet',
      balance_millicents: 100_000,
    });
    expect((await count(wallet, {})).body).toMatchObject({
      new_count: all,
      new_cost_millicents: all * 400,
    });

    const entitlement = await newReader(ctx.deps, {
      billing_model: 'legacy_entitlement',
      allowance_override: 3,
    });
    expect((await count(entitlement, {})).body).toMatchObject({
      new_count: all,
      new_cost_millicents: 0,
    });
  });

  it('stays exact when a delivery commits after later ones were read (held ids refreshed)', async () => {
    // The meter keeps the period's delivered ids between requests and reads only the newest
    // deliveries (src/billing/delivered-cache.ts). A delivery whose delivered_at is older than
    // what it holds (a long transaction committing late) must still be seen: used says so.
    const reader = await newReader(ctx.deps);
    const delivered = new Set(await receive(reader, { level: 'senior' }));
    const all = expected({});
    expect((await count(reader, {})).body.new_count).toBe(all.length - delivered.size);
    // One an hour older than the newest held (past REFRESH_OVERLAP_MS: a full reread finds it),
    // then one 30 s older (the refresh that looks a little further back finds it).
    for (const before of ['1 hour', '30 seconds']) {
      const late = all.find((r) => !delivered.has(r.id));
      if (!late) throw new Error('fixture has too few undelivered records');
      await ctx.deps.pool.query(
        `WITH ins AS (
           INSERT INTO metering_deliveries
             (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents, delivered_at)
           SELECT account_id, period_start, $2, key_id, 'late', 0, delivered_at - $3::interval
             FROM metering_deliveries WHERE account_id = $1 ORDER BY delivered_at DESC LIMIT 1
           RETURNING account_id, period_start)
         UPDATE metering_usage u SET used = used + 1, included_used = included_used + 1
           FROM ins WHERE u.account_id = ins.account_id AND u.period_start = ins.period_start`,
        [reader.accountId, late.id, before],
      );
      delivered.add(late.id);
      expect((await count(reader, {})).body.new_count).toBe(all.length - delivered.size);
    }
    const unseen = await listAll(ctx.baseUrl, reader.key, qs({ unseen_only: 'true' }), 50);
    expect(idsOf(unseen.records)).toEqual(idsOf(all.filter((r) => !delivered.has(r.id))));
    // Listing them delivered them: nothing new is left, and the held ids know it.
    expect((await count(reader, {})).body.new_count).toBe(0);
  });

  it('stays exact past 65,536 deliveries in the period (chunked terms)', async () => {
    const reader = await newReader(ctx.deps);
    const served = await receive(reader, { level: 'senior' });
    // 70,000 more deliveries this period, for ids that are not in the index. A bulk write beyond
    // the service's statement deadline on a loaded machine: its own connection, no deadline.
    const bulk = new Client({ connectionString: ctx.databaseUrl });
    await bulk.connect();
    try {
      await bulk.query(
        `INSERT INTO metering_deliveries
         (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
       SELECT d.account_id, d.period_start, gen_random_uuid(), d.key_id, 'bulk', 0
         FROM (SELECT * FROM metering_deliveries WHERE account_id = $1 LIMIT 1) d,
              generate_series(1, 70000)`,
        [reader.accountId],
      );
    } finally {
      await bulk.end();
    }
    await receive(reader, { job_family: 'data' });
    const delivered = new Set([...served, ...idsOf(expected({ job_family: 'data' }))]);
    for (const q of QUERIES) {
      const res = await count(reader, q);
      expect(res.body.new_count).toBe(expected(q).filter((r) => !delivered.has(r.id)).length);
    }
    const unseen = await listAll(ctx.baseUrl, reader.key, qs({ unseen_only: 'true' }), 9);
    expect(idsOf(unseen.records)).toEqual(idsOf(expected({}).filter((r) => !delivered.has(r.id))));
  });

  it('MCP-only and unknown spellings are refused', async () => {
    const reader = await newReader(ctx.deps);
    const res = await get(ctx.baseUrl, '/v1/opportunities/count?include=new_counts', {
      key: reader.key,
    });
    expectError(res, 400, 'invalid_filter', { parameter: 'include', reason: 'unknown_value' });
  });
});

describe('unseen_only=true', () => {
  it('pages through exactly the records not yet received, each new and consumed', async () => {
    const reader = await newReader(ctx.deps);
    const seen = new Set(await receive(reader, { level: 'senior' }));
    const q = { unseen_only: 'true' };
    const { records, pages } = await listAll(ctx.baseUrl, reader.key, qs(q), 6);
    expect(idsOf(records)).toEqual(idsOf(expected({}).filter((r) => !seen.has(r.id))));
    for (const page of pages) {
      expect(page.meta.applied_filters).toEqual({ unseen_only: true });
    }
    // Everything has been received now: nothing is left to see, nothing is charged.
    const again = await list(reader, q);
    expect(again.body.data).toEqual([]);
    expect(again.body.pagination.has_more).toBe(false);
    expect((await count(reader, {})).body.new_count).toBe(0);
  });

  // contract §16.4: contention is resolved by waiting. Two parallel pages of one account (the most
  // in flight, §19.8) find the same unseen records; the one that loses all of them to the other
  // searches again instead of coming back empty (as it did 7 times in 8).
  it('two parallel pages of one account each come back full, none sharing a record', async () => {
    const all = expected({}).length;
    for (let round = 0; round < 4; round++) {
      const reader = await newReader(ctx.deps);
      const pages = await Promise.all(
        Array.from({ length: 2 }, () => list(reader, { unseen_only: 'true', limit: '3' })),
      );
      const ids = pages.flatMap((page) => {
        expect(page.status).toBe(200);
        expect(page.body.pagination.returned).toBe(3);
        return idsOf(page.body.data);
      });
      expect(new Set(ids).size).toBe(6);
      expect(pages.map(newHeader)).toEqual([3, 3]);
      expect((await count(reader, {})).body.new_count).toBe(all - 6);
    }
  });

  it('unseen_only=false is the list without it: the same cursors serve both', async () => {
    const reader = await newReader(ctx.deps);
    const first = await list(reader, { limit: '3' });
    const cursor = first.body.pagination.next_cursor as string;
    const next = await list(reader, { unseen_only: 'false', cursor, limit: '3' });
    expect(next.status).toBe(200);
    expect(idsOf(next.body.data)).toEqual(idsOf(expected({}).slice(3, 6)));
  });

  it('binds the cursor: a cursor of unseen_only is not valid without it', async () => {
    const reader = await newReader(ctx.deps);
    const first = await list(reader, { unseen_only: 'true', limit: '3' });
    const cursor = first.body.pagination.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const res = await list(reader, { cursor, limit: '3' });
    expectError(res, 400, 'malformed_cursor');
  });

  it.each([
    ['unseen_only=maybe', 422, 'validation_error'],
    ['unseen_only=1', 422, 'validation_error'],
  ])('%s → %i', async (query, status, code) => {
    const reader = await newReader(ctx.deps);
    const res = await get(ctx.baseUrl, `/v1/opportunities?${query}`, { key: reader.key });
    expectError(res, status, code, { parameter: 'unseen_only' });
  });

  it('is a list parameter, not a count one', async () => {
    const reader = await newReader(ctx.deps);
    const res = await get(ctx.baseUrl, '/v1/opportunities/count?unseen_only=true', {
      key: reader.key,
    });
    expectError(res, 400, 'invalid_filter', { parameter: 'unseen_only' });
  });
});

describe('max_new=N', () => {
  it('never passes the budget, keeps repeats, and paging skips nothing', async () => {
    const reader = await newReader(ctx.deps);
    const seen = new Set(await receive(reader, { level: 'senior' }));
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: Query = { limit: '10', max_new: '2', ...(cursor ? { cursor } : {}) };
      const res = await list(reader, q);
      expect(res.status).toBe(200);
      const data = res.body.data as { id: string }[];
      const fresh = data.filter((r) => !seen.has(r.id));
      expect(fresh.length).toBeLessThanOrEqual(2);
      expect(newHeader(res)).toBe(fresh.length);
      // Stopped before a third new one: the page is short, and has_more stays true.
      if (data.length < 10 && res.body.pagination.next_cursor) expect(fresh.length).toBe(2);
      for (const r of data) seen.add(r.id);
      ids.push(...data.map((r) => r.id));
      cursor = res.body.pagination.next_cursor;
      expect(res.body.pagination.has_more).toBe(cursor !== null);
      expect(res.body.meta.applied_filters).toEqual({});
    } while (cursor !== null && ++pages < 100);
    expect(ids).toEqual(idsOf(expected({})));
  });

  it('max_new=0 returns only repeats; an empty page keeps has_more and resumes in place', async () => {
    const reader = await newReader(ctx.deps);
    const first = await list(reader, { limit: '5', max_new: '0' });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([]);
    expect(first.body.pagination).toMatchObject({ returned: 0, has_more: true });
    expect(newHeader(first)).toBe(0);
    // The budget may change between pages: the cursor resumes at the very first record.
    const next = await list(reader, {
      limit: '5',
      max_new: '5',
      cursor: first.body.pagination.next_cursor,
    });
    expect(idsOf(next.body.data)).toEqual(idsOf(expected({}).slice(0, 5)));
    // Now they are repeats: max_new=0 serves them in full.
    const repeats = await list(reader, { limit: '5', max_new: '0' });
    expect(idsOf(repeats.body.data)).toEqual(idsOf(expected({}).slice(0, 5)));
    expect(newHeader(repeats)).toBe(0);
  });

  // contract §11.2: a page that comes back short with more to come stopped for its budget, so it
  // holds max_new new records. Parallel pages of one account decide their cut on what was new when
  // they read; records another page delivered meanwhile turn into repeats, and the page goes on
  // past them (it stopped short before, with budget left: 4 repeats and 0 new in an audit).
  it('parallel pages of one account that stop short have spent their budget', async () => {
    for (let round = 0; round < 6; round++) {
      const reader = await newReader(ctx.deps);
      const pages = await Promise.all(
        Array.from({ length: 3 }, () => list(reader, { limit: '6', max_new: '2' })),
      );
      for (const page of pages) {
        expect(page.status).toBe(200);
        const { returned, has_more } = page.body.pagination;
        if (returned < 6 && has_more) expect(newHeader(page)).toBe(2);
        expect(newHeader(page)).toBeLessThanOrEqual(2);
      }
    }
  });

  it('holds under parallel pages of one account: never more new than the budgets allow', async () => {
    const reader = await newReader(ctx.deps);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        list(reader, { limit: '20', max_new: '3', ...(i % 2 ? { unseen_only: 'true' } : {}) }),
      ),
    );
    let total = 0;
    const everyNew: string[] = [];
    for (const [i, res] of responses.entries()) {
      // contract §19.8: at most 2 unseen_only pages of one account in flight; the others 429.
      if (res.status === 429 && i % 2 === 1) {
        expect(res.body.error.code).toBe('rate_limit_exceeded');
        continue;
      }
      expect(res.status).toBe(200);
      expect(newHeader(res)).toBeLessThanOrEqual(3);
      total += newHeader(res);
      if (res.body.meta.applied_filters.unseen_only) {
        expect(newHeader(res)).toBe(res.body.data.length);
        everyNew.push(...idsOf(res.body.data));
      }
    }
    expect(total).toBeLessThanOrEqual(12 * 3);
    expect(new Set(everyNew).size).toBe(everyNew.length);
    const { rows } = await ctx.deps.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM metering_deliveries WHERE account_id = $1',
      [reader.accountId],
    );
    expect(rows[0]?.n).toBe(total);
  });

  it.each(['max_new=101', 'max_new=-1', 'max_new=two', 'max_new=1.5'])(
    '%s → 422 validation_error',
    async (query) => {
      const reader = await newReader(ctx.deps);
      const res = await get(ctx.baseUrl, `/v1/opportunities?${query}`, { key: reader.key });
      expectError(res, 422, 'validation_error', { parameter: 'max_new' });
    },
  );
});
