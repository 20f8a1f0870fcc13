import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sdkClient } from '../support/sdk-client';
import { fixtureWorld } from '../support/fixture-world';
import { storeAndIndex } from '../support/fixtures';
import type { TestContext } from '../support/harness';
import {
  HOSTILE_QUERIES,
  KEYWORD_CASES,
  KEYWORD_FIXTURE,
  titled,
} from '../support/keyword-fixture';
import {
  CONTRACT_FILTERS,
  FIXTURE,
  expected,
  idsOf,
  qs,
  type Query,
} from '../support/read-fixture';
import { expectError, get, listAll, newReader, type Reader } from '../support/read-http';

// contract §7: keyword search `q` and sort=relevance against the real OpenSearch, over
// HTTP: every rule of the syntax and the analysis (keyword-fixture.ts), q with every other filter,
// keyset paging under relevance, the cursor's binding, and bad q values.

let ctx: TestContext;
let reader: Reader;

beforeAll(async () => {
  ({ ctx, reader } = await fixtureWorld());
  await storeAndIndex(ctx.deps, [...KEYWORD_FIXTURE]);
});
afterAll(() => ctx.close());

const list = (query: Query, limit = 100) => listAll(ctx.baseUrl, reader.key, qs(query), limit);
const keywordIds = new Set(idsOf(KEYWORD_FIXTURE));
const count = async (query: Query) => {
  const res = await get(ctx.baseUrl, `/v1/opportunities/count?${qs(query)}`, { key: reader.key });
  expect(res.status).toBe(200);
  return res.body.count as number;
};

describe.each(KEYWORD_CASES)('%s: q=%s', (_label, q, titles) => {
  it('list (every page, freshness order) and count', async () => {
    const { records } = await list({ q }, 3);
    // The read fixture is indexed beside: only the keyword records are asserted exactly here.
    expect(idsOf(records).filter((id) => keywordIds.has(id))).toEqual(titled(...titles));
    expect(await count({ q })).toBe(records.length);
  });
});

describe('q in the envelope and the other endpoints', () => {
  it('applied_filters echoes q trimmed; sort when given', async () => {
    const res = await get(
      ctx.baseUrl,
      `/v1/opportunities?${qs({ q: '  rust  ', sort: 'relevance' })}`,
      {
        key: reader.key,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.meta.applied_filters).toEqual({ q: 'rust', sort: 'relevance' });
    expect(idsOf(res.body.data)).toEqual(titled('Rust Engineer'));
  });

  it('preview takes q and sort (live records only)', async () => {
    const res = await get(
      ctx.baseUrl,
      `/v1/preview/opportunities?${qs({ q: 'golang', sort: 'relevance' })}`,
    );
    expect(res.status).toBe(200);
    expect(new Set(idsOf(res.body.data))).toEqual(
      new Set(titled('Senior Golang Developer', 'Go Developers for a payments team')),
    );
  });

  it('group_by facets and include=new_count count what q matches', async () => {
    const fresh = await newReader(ctx.deps); // nothing delivered yet
    const res = await get(
      ctx.baseUrl,
      `/v1/opportunities/count?${qs({ q: 'js', group_by: 'level', include: 'new_count' })}`,
      { key: fresh.key },
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.new_count).toBe(2);
    expect(res.body.groups).toEqual([{ value: 'senior', count: 2 }]);
  });

  it('unseen_only with q returns only the matches not yet delivered', async () => {
    const fresh = await newReader(ctx.deps);
    const first = await get(ctx.baseUrl, `/v1/opportunities?${qs({ q: 'ai', limit: '1' })}`, {
      key: fresh.key,
    });
    expect(first.body.data).toHaveLength(1);
    const rest = await get(
      ctx.baseUrl,
      `/v1/opportunities?${qs({ q: 'ai', unseen_only: 'true' })}`,
      {
        key: fresh.key,
      },
    );
    expect(idsOf(rest.body.data)).toEqual(
      titled('Artificial Intelligence Researcher', 'AI Trainer').filter(
        (id) => id !== first.body.data[0].id,
      ),
    );
  });

  it('MCP search_opportunities and count_opportunities take q and sort', async () => {
    const client = sdkClient('keyword-search-test');
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ctx.baseUrl}/mcp`), {
        requestInit: { headers: { 'X-API-Key': reader.key } },
      }),
    );
    try {
      const { tools } = await client.listTools(); // output schemas: results are validated
      for (const name of ['search_opportunities', 'count_opportunities']) {
        const tool = tools.find((t) => t.name === name);
        const props = tool?.inputSchema.properties as Record<string, Record<string, unknown>>;
        expect(props.q).toMatchObject({ type: 'string' });
        expect(tool?.description).toMatch(/"[^"]+"/); // teaches the syntax by example
      }
      const search = await client.callTool({
        name: 'search_opportunities',
        arguments: { q: '"data engineer" OR rust', sort: 'relevance' },
      });
      const data = (search.structuredContent as { data: { id: string }[] }).data;
      const want = new Set(titled('Data Engineer', 'Rust Engineer'));
      expect(new Set(idsOf(data).filter((id) => keywordIds.has(id)))).toEqual(want);
      const counted = await client.callTool({
        name: 'count_opportunities',
        arguments: { q: 'k8s, kubernetes' },
      });
      // The comma is text: the same as REST's k8s kubernetes.
      expect((counted.structuredContent as { count: number }).count).toBe(
        await count({ q: 'k8s kubernetes' }),
      );
      // A lone surrogate (JSON can carry one, a URL cannot) is read as REST reads an invalid
      // byte, U+FFFD, which the analyzer drops: the other word still decides.
      const surrogate = await client.callTool({
        name: 'count_opportunities',
        arguments: { q: 'rust \ud800' },
      });
      expect((surrogate.structuredContent as { count: number }).count).toBe(
        await count({ q: 'rust' }),
      );
      expect(await count({ q: 'rust' })).toBeGreaterThan(0);
      const bad = await client.callTool({ name: 'count_opportunities', arguments: { q: ' ' } });
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent).toMatchObject({
        error: { code: 'invalid_filter', details: { parameter: 'q' } },
      });
    } finally {
      await client.close();
    }
  });
});

describe('q ANDs with every other filter', () => {
  // One value per filter of contract §6.1, against the read fixture's oracle: the list under q and
  // the filter is exactly the list under q intersected with the oracle's answer for the filter.
  const SAMPLES: Record<string, string> = {
    published_after: '2026-09-05',
    published_before: '2026-09-10T12:00:00Z',
    fresh_after: '2026-09-08',
    job_domain: 'software_data_ai',
    job_family: 'data,software_engineering',
    job_subfamily: 'backend_engineering,data_engineering',
    job_class: 'react_developer,java_backend_developer',
    normalized_title: 'java backend developer',
    level: 'senior,staff',
    management_track: 'people_manager',
    specializations: 'dbt',
    engagement_model: 'c2c',
    commercial_eligibility: 'eligible',
    actionability: 'actionable',
    remote: 'true',
    country: 'us',
    city: 'austin',
    state: 'tx',
    region: 'California',
    rate_min: '85',
    rate_max: '90',
    currency: 'usd',
    pay_basis: 'hourly,daily',
    work_structure: 'ongoing_contract',
    source: 'lever',
    liveness_status: 'live',
    first_seen_after: '2026-09-08',
    changed_since: '2026-09-10',
  };

  it('has a sample for every filter', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...CONTRACT_FILTERS].sort());
  });

  it.each(Object.entries(SAMPLES))('q=developer with %s=%s', async (name, value) => {
    const matched = new Set(idsOf((await list({ q: 'developer' })).records));
    const all = [...FIXTURE, ...KEYWORD_FIXTURE];
    const want = idsOf(expected({ [name]: value }, all)).filter((id) => matched.has(id));
    const got = idsOf((await list({ q: 'developer', [name]: value })).records);
    expect(got).toEqual(want);
    expect(await count({ q: 'developer', [name]: value })).toBe(want.length);
  });
});

describe('sort=relevance', () => {
  it('every page of a walk visits the full result set once, in a stable order', async () => {
    const q = 'engineer OR developer OR data';
    const all = idsOf((await list({ q })).records);
    expect(all.length).toBeGreaterThan(20);
    for (const limit of [1, 4, 7]) {
      const walked = idsOf((await list({ q, sort: 'relevance' }, limit)).records);
      expect(new Set(walked).size).toBe(walked.length); // no duplicate
      expect([...walked].sort()).toEqual([...all].sort()); // no miss
      // Deterministic: the same order whatever the page size.
      expect(walked).toEqual(idsOf((await list({ q, sort: 'relevance' }, 100)).records));
    }
  });

  it('ranks a title match above a label-only match, ties by freshness', async () => {
    const res = await list({ q: 'react', sort: 'relevance' });
    const ids = idsOf(res.records).filter((id) => keywordIds.has(id));
    expect(ids).toEqual(titled('ReactJS Frontend Developer').concat(titled('Frontend Wizard')));
  });

  it('a page stopped at once by max_new=0 resumes from the start of the relevance order', async () => {
    const fresh = await newReader(ctx.deps); // nothing delivered: every record is new
    const q = { q: 'engineer', sort: 'relevance' };
    const stopped = await get(ctx.baseUrl, `/v1/opportunities?${qs({ ...q, max_new: '0' })}`, {
      key: fresh.key,
    });
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toEqual([]);
    const cursor = stopped.body.pagination.next_cursor as string;
    const resumed = await get(
      ctx.baseUrl,
      `/v1/opportunities?${qs({ ...q, cursor, limit: '5' })}`,
      {
        key: fresh.key,
      },
    );
    const first = await get(ctx.baseUrl, `/v1/opportunities?${qs({ ...q, limit: '5' })}`, {
      key: reader.key,
    });
    expect(idsOf(resumed.body.data)).toEqual(idsOf(first.body.data));
  });

  it('sort=freshness is the default order', async () => {
    const q = 'engineer';
    expect(idsOf((await list({ q, sort: 'freshness' })).records)).toEqual(
      idsOf((await list({ q })).records),
    );
  });

  it('sort=relevance without q → 400 invalid_filter', async () => {
    const res = await get(ctx.baseUrl, '/v1/opportunities?sort=relevance', { key: reader.key });
    expectError(res, 400, 'invalid_filter', { parameter: 'sort' });
    const preview = await get(ctx.baseUrl, '/v1/preview/opportunities?sort=relevance');
    expectError(preview, 400, 'invalid_filter', { parameter: 'sort' });
  });

  it('an unknown sort → 400 invalid_filter; count takes no sort', async () => {
    expectError(
      await get(ctx.baseUrl, '/v1/opportunities?q=a&sort=newest', { key: reader.key }),
      400,
      'invalid_filter',
      { parameter: 'sort' },
    );
    expectError(
      await get(ctx.baseUrl, '/v1/opportunities/count?q=a&sort=relevance', { key: reader.key }),
      400,
      'invalid_filter',
      { parameter: 'sort' },
    );
  });
});

describe('the cursor is bound to q and sort', () => {
  const firstCursor = async (query: Query) => {
    const res = await get(ctx.baseUrl, `/v1/opportunities?${qs({ ...query, limit: '1' })}`, {
      key: reader.key,
    });
    expect(res.body.pagination.next_cursor).toEqual(expect.any(String));
    return res.body.pagination.next_cursor as string;
  };
  const next = (query: Query, cursor: string) =>
    get(ctx.baseUrl, `/v1/opportunities?${qs({ ...query, cursor })}`, { key: reader.key });

  it.each([
    ['another q', { q: 'engineer' }, { q: 'developer' }],
    ['q added', { job_family: 'data' }, { job_family: 'data', q: 'data' }],
    ['q dropped', { q: 'engineer' }, {}],
    ['relevance → freshness', { q: 'engineer', sort: 'relevance' }, { q: 'engineer' }],
    ['freshness → relevance', { q: 'engineer' }, { q: 'engineer', sort: 'relevance' }],
  ] as const)('%s → 400 malformed_cursor', async (_label, from, to) => {
    expectError(await next(to, await firstCursor(from)), 400, 'malformed_cursor');
  });

  it('the same q with other surrounding spaces, and sort=freshness or none, keep the cursor', async () => {
    const cursor = await firstCursor({ q: 'engineer' });
    expect((await next({ q: ' engineer ', sort: 'freshness' }, cursor)).status).toBe(200);
  });
});

describe('bad q', () => {
  it.each([
    ['empty', ''],
    ['whitespace only', '   \t '],
    ['201 characters', 'a'.repeat(201)],
    ['201 characters of words', `${'ab '.repeat(70).slice(0, 200)}x`],
  ])('%s → 400 invalid_filter on q', async (_label, q) => {
    for (const path of ['/v1/opportunities', '/v1/opportunities/count']) {
      const res = await get(ctx.baseUrl, `${path}?${qs({ q })}`, { key: reader.key });
      expectError(res, 400, 'invalid_filter', { parameter: 'q' });
    }
    expectError(
      await get(ctx.baseUrl, `/v1/preview/opportunities?${qs({ q })}`),
      400,
      'invalid_filter',
      { parameter: 'q' },
    );
  });

  it('200 characters after trimming is accepted', async () => {
    const res = await get(ctx.baseUrl, `/v1/opportunities?${qs({ q: ` ${'a'.repeat(200)} ` })}`, {
      key: reader.key,
    });
    expect(res.status).toBe(200);
  });

  it('commas are text, not a list', async () => {
    const res = await get(
      ctx.baseUrl,
      `/v1/opportunities/count?${qs({ q: 'engineer, payments' })}`,
      {
        key: reader.key,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
  });
});

describe('punctuation and operators never fail', () => {
  it.each(HOSTILE_QUERIES.map((q) => [q]))('q=%s', async (q) => {
    for (const sort of ['freshness', 'relevance']) {
      const res = await get(ctx.baseUrl, `/v1/opportunities?${qs({ q, sort })}`, {
        key: reader.key,
      });
      expect({ q, status: res.status, body: res.status === 200 ? null : res.body }).toEqual({
        q,
        status: 200,
        body: null,
      });
    }
    const counted = await get(
      ctx.baseUrl,
      `/v1/opportunities/count?${qs({ q, group_by: 'level' })}`,
      {
        key: reader.key,
      },
    );
    expect(counted.status).toBe(200);
  });

  it('only exclusions: every record but the excluded ones', async () => {
    const all = await count({});
    const rust = await count({ q: 'rust' });
    expect(await count({ q: '-rust' })).toBe(all - rust);
  });
});
