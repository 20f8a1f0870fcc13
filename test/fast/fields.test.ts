import { FIXTURE, expected, idsOf } from '../support/read-fixture';
import { expectError, get } from '../support/read-http';
import { MCP_CLIENTS, type McpClient } from '../support/mcp-clients';
import { startFastApp, type FastApp } from './support/fast-app';

// contract §7.6 `fields` on list and detail (REST) and both MCP record tools: every record has
// exactly id plus the named fields, unknown names are 400 invalid_filter, metering and paging are
// unchanged, and the ETag covers the shape. (The change feed: test/integration/fields.test.ts.)

let app: FastApp;

beforeAll(async () => {
  app = await startFastApp(FIXTURE);
});
afterAll(() => app.close());

const keysOf = (records: object[]) => records.map((r) => Object.keys(r));
const used = async (key: string) =>
  (await get(app.baseUrl, '/v1/usage', { key })).body.opportunities.used as number;

describe('GET /v1/opportunities?fields=', () => {
  it('every record has exactly id and the named fields, in record order', async () => {
    const { key } = app.reader();
    const res = await get(app.baseUrl, '/v1/opportunities?limit=5&fields=rate,title', { key });
    expect(res.status).toBe(200);
    expect(keysOf(res.body.data)).toEqual(Array(5).fill(['id', 'title', 'rate']));
    expect(idsOf(res.body.data)).toEqual(idsOf(expected({})).slice(0, 5));
    // fields selects nothing: not among the applied filters.
    expect(res.body.meta.applied_filters).toEqual({});
  });

  it('the same page asked with many field lists in turn answers each exactly (shared sparse records)', async () => {
    const { key } = app.reader();
    const whole = (await get(app.baseUrl, '/v1/opportunities?limit=4', { key })).body
      .data as Record<string, unknown>[];
    // More lists than a record keeps shapes for (src/service/shaped-records.ts), then the first again.
    const lists = [['title'], ['rate', 'title'], ['employer'], ['location'], ['rate'], ['title']];
    for (const fields of lists) {
      const res = await get(app.baseUrl, `/v1/opportunities?limit=4&fields=${fields.join(',')}`, {
        key,
      });
      const keep = Object.keys(whole[0] ?? {}).filter((f) => f === 'id' || fields.includes(f));
      expect(res.body.data).toEqual(
        whole.map((r) => Object.fromEntries(keep.map((f) => [f, r[f]]))),
      );
    }
  });

  it('fields=id returns ids only; naming id again changes nothing', async () => {
    const { key } = app.reader();
    for (const fields of ['id', 'id,id']) {
      const res = await get(app.baseUrl, `/v1/opportunities?limit=3&fields=${fields}`, { key });
      expect(keysOf(res.body.data)).toEqual(Array(3).fill(['id']));
    }
  });

  it.each([
    ['fields=title,salary', 400, 'invalid_filter'],
    ['fields=location.city', 400, 'invalid_filter'],
    ['fields=', 422, 'validation_error'],
    ['fields=title&fields=rate', 400, 'invalid_filter'],
  ] as const)('?%s is %i %s naming fields', async (query, status, code) => {
    const { key } = app.reader();
    expectError(await get(app.baseUrl, `/v1/opportunities?${query}`, { key }), status, code, {
      parameter: 'fields',
    });
  });

  it('is not bound to the cursor, and metering is unchanged (charged per record delivered)', async () => {
    const { key } = app.reader();
    const first = await get(app.baseUrl, '/v1/opportunities?limit=3&fields=title', { key });
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    const second = await get(app.baseUrl, `/v1/opportunities?limit=3&cursor=${cursor}`, { key });
    expect(second.status).toBe(200);
    expect(Object.keys(second.body.data[0]).length).toBeGreaterThan(10);
    const cursor2 = encodeURIComponent(second.body.pagination.next_cursor);
    const third = await get(
      app.baseUrl,
      `/v1/opportunities?limit=3&fields=employer&cursor=${cursor2}`,
      { key },
    );
    expect(keysOf(third.body.data)).toEqual(Array(3).fill(['id', 'employer']));
    expect([
      ...idsOf(first.body.data),
      ...idsOf(second.body.data),
      ...idsOf(third.body.data),
    ]).toEqual(idsOf(expected({})).slice(0, 9));
    expect(first.headers.get('x-service-new-opportunity-count')).toBe('3');
    expect(await used(key)).toBe(9);
  });

  it('the ETag covers fields: another shape is another tag; the same shape revalidates to 304', async () => {
    const { key } = app.reader();
    const sparse = await get(app.baseUrl, '/v1/opportunities?limit=2&fields=title', { key });
    const whole = await get(app.baseUrl, '/v1/opportunities?limit=2', { key });
    const other = await get(app.baseUrl, '/v1/opportunities?limit=2&fields=rate', { key });
    const tags = [sparse, whole, other].map((r) => r.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);
    const etag = sparse.headers.get('etag') as string;
    const again = await get(app.baseUrl, '/v1/opportunities?limit=2&fields=title', {
      key,
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    const otherShape = await get(app.baseUrl, '/v1/opportunities?limit=2&fields=rate', {
      key,
      headers: { 'If-None-Match': etag },
    });
    expect(otherShape.status).toBe(200);
  });
});

describe('GET /v1/opportunities/{id}?fields=', () => {
  const record = FIXTURE[3] as (typeof FIXTURE)[number];

  it('the record has exactly id and the named fields; it is delivered and charged as usual', async () => {
    const { key } = app.reader();
    const res = await get(
      app.baseUrl,
      `/v1/opportunities/${record.id}?fields=canonical_url,engagement_models`,
      { key },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: record.id,
      canonical_url: record.canonical_url,
      engagement_models: record.engagement_models,
    });
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('1');
  });

  it('an unknown field is 400 invalid_filter naming fields', async () => {
    const { key } = app.reader();
    expectError(
      await get(app.baseUrl, `/v1/opportunities/${record.id}?fields=nope`, { key }),
      400,
      'invalid_filter',
      { parameter: 'fields' },
    );
  });
});

// The client validates structuredContent against the declared outputSchema: sparse records must
// pass it, in every protocol revision.
describe.each(MCP_CLIENTS.filter((k) => k.name.startsWith('sdk') || k.revision === '2026-07-28'))(
  'MCP $name',
  (kind) => {
    let client: McpClient;
    beforeAll(async () => {
      client = await kind.connect(new URL(`${app.baseUrl}/mcp`), {
        'X-API-Key': app.reader().key,
      });
      await client.listTools();
    });
    afterAll(() => client.close());

    it('search_opportunities and get_opportunity take fields as an array of names', async () => {
      const found = await client.callTool({
        name: 'search_opportunities',
        arguments: { limit: 4, fields: ['title', 'location'] },
      });
      expect(found.isError).toBeFalsy();
      const { data } = found.structuredContent as { data: object[] };
      expect(keysOf(data)).toEqual(Array(4).fill(['id', 'title', 'location']));

      const id = (data[0] as { id: string }).id;
      const one = await client.callTool({
        name: 'get_opportunity',
        arguments: { id, fields: ['rate'] },
      });
      expect(one.isError).toBeFalsy();
      expect(Object.keys((one.structuredContent as { data: object }).data)).toEqual(['id', 'rate']);
    });

    it('an unknown field is an isError result with invalid_filter naming fields', async () => {
      for (const [name, args] of [
        ['search_opportunities', { fields: ['salary'] }],
        ['get_opportunity', { id: FIXTURE[0]?.id, fields: ['salary'] }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({
          error: { code: 'invalid_filter', details: { parameter: 'fields' } },
        });
      }
    });
  },
);
