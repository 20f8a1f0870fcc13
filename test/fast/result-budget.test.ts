import { FIXTURE, expected, idsOf } from '../support/read-fixture';
import { get } from '../support/read-http';
import { MCP_CLIENTS, type McpClient } from '../support/mcp-clients';
import { startFastApp, type FastApp } from './support/fast-app';

// contract §21.11, the result budget: the text block of a search_opportunities result stays within
// MCP_MAX_RESULT_BYTES; a page that would pass it stops before the record that would (at least one
// record comes), next_cursor continues right after the last returned record, and what was left
// out is neither delivered nor charged. The fixture's records are about 1.5 KB each.

const BUDGET = 8_000;
const [v1, , , pinned] = MCP_CLIENTS;

interface Page {
  data: { id: string }[];
  pagination: { returned: number; next_cursor: string | null; has_more: boolean; limit: number };
}

let app: FastApp;
beforeAll(async () => {
  app = await startFastApp(FIXTURE, { MCP_MAX_RESULT_BYTES: String(BUDGET) });
});
afterAll(() => app.close());

// An agent plans by the budget in force: the instructions and /llms.txt said 80,000 bytes "by
// default" whatever the server's.
it('the instructions and /llms.txt name the budget in force', async () => {
  const res = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'X-API-Key': app.reader().key,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'budget', version: '1' },
      },
    }),
  });
  const { result } = (await res.json()) as { result: { instructions: string } };
  expect(result.instructions).toContain('8,000 bytes on this server, about 2,000 tokens');
  expect(result.instructions).not.toContain('80,000');
  const llms = await (await fetch(`${app.baseUrl}/llms.txt`)).text();
  expect(llms).toContain('8,000 bytes on this server, about 2,000 tokens');
  expect(llms).not.toContain('80,000');
});

describe.each([v1, pinned].map((k) => k as NonNullable<typeof k>))('$name', (kind) => {
  let key: string;
  let client: McpClient;
  beforeEach(async () => {
    ({ key } = app.reader());
    client = await kind.connect(new URL(`${app.baseUrl}/mcp`), { 'X-API-Key': key });
    await client.listTools();
  });
  afterEach(() => client.close());

  async function search(args: Record<string, unknown>) {
    const result = await client.callTool({ name: 'search_opportunities', arguments: args });
    expect(result.isError).toBeFalsy();
    const [block] = result.content as { type: string; text: string }[];
    const text = block?.text ?? '';
    // structuredContent carries the same records as the text block.
    expect(result.structuredContent).toEqual(JSON.parse(text));
    return { text, page: result.structuredContent as Page };
  }

  it('a page that would pass the budget is cut before the record that would pass it', async () => {
    const { text, page } = await search({ limit: 25 });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BUDGET);
    expect(page.pagination.returned).toBe(page.data.length);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.length).toBeLessThan(25);
    expect(page.pagination).toMatchObject({ has_more: true, limit: 25 });
    // One more record would have passed it: the page stopped before that record, not earlier.
    const next = expected({})[page.data.length];
    expect(Buffer.byteLength(text) + Buffer.byteLength(JSON.stringify(next)) + 1).toBeGreaterThan(
      BUDGET - 200,
    );
    // Only the returned records were delivered and charged.
    const usage = await get(app.baseUrl, '/v1/usage', { key });
    expect(usage.body.opportunities.used).toBe(page.data.length);
  });

  it('walking the cursor visits every record once, nothing skipped, every page within budget', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const { text, page }: { text: string; page: Page } = await search({
        limit: 25,
        ...(cursor ? { cursor } : {}),
      });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BUDGET);
      ids.push(...idsOf(page.data));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(ids).toEqual(idsOf(expected({})));
    const usage = await get(app.baseUrl, '/v1/usage', { key });
    expect(usage.body.opportunities.used).toBe(FIXTURE.length);
  });

  it('a record set that fits passes untouched (fields make more fit)', async () => {
    const { text, page } = await search({ limit: 25, fields: ['title', 'rate'] });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BUDGET);
    expect(idsOf(page.data)).toEqual(idsOf(expected({})).slice(0, 25));
    const small = await search({ limit: 3 });
    expect(idsOf(small.page.data)).toEqual(idsOf(expected({})).slice(0, 3));
  });
});

it('REST pages are not cut', async () => {
  const { key } = app.reader();
  const res = await get(app.baseUrl, '/v1/opportunities?limit=25', { key });
  expect(res.body.data).toHaveLength(25);
});

it('at least one record comes, even when one record alone passes the budget', async () => {
  const tight = await startFastApp(FIXTURE, { MCP_MAX_RESULT_BYTES: '1000' });
  const { key } = tight.reader();
  const client = await (v1 as NonNullable<typeof v1>).connect(new URL(`${tight.baseUrl}/mcp`), {
    'X-API-Key': key,
  });
  try {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({
        name: 'search_opportunities',
        arguments: { limit: 10, ...(cursor ? { cursor } : {}) },
      });
      const page = result.structuredContent as Page;
      expect(page.data).toHaveLength(1);
      expect(page.pagination.has_more).toBe(true);
      ids.push(...idsOf(page.data));
      cursor = page.pagination.next_cursor;
    }
    expect(ids).toEqual(idsOf(expected({})).slice(0, 3));
  } finally {
    await client.close();
    await tight.close();
  }
});

// A grouped count is refused, not cut, when its answer would pass the budget (a cut count would be
// a wrong one); an ungrouped count and a grouping that fits are answered as always.
it('count_opportunities: groups that would pass the budget are refused naming group_limit', async () => {
  const tight = await startFastApp(FIXTURE, { MCP_MAX_RESULT_BYTES: '1000' });
  const { key } = tight.reader();
  const client = await (v1 as NonNullable<typeof v1>).connect(new URL(`${tight.baseUrl}/mcp`), {
    'X-API-Key': key,
  });
  const count = (args: Record<string, unknown>) =>
    client.callTool({ name: 'count_opportunities', arguments: args });
  try {
    const wide = { group_by: ['level', 'job_class'], group_limit: 100 };
    // The same grouping over REST is larger than the budget: the refusal is about its size.
    const rest = await get(
      tight.baseUrl,
      '/v1/opportunities/count?group_by=level,job_class&group_limit=100',
      { key },
    );
    expect(Buffer.byteLength(rest.text)).toBeGreaterThan(1000);
    const refused = await count(wide);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      error: {
        code: 'invalid_filter',
        details: { parameter: 'group_limit', reason: 'out_of_range' },
      },
    });
    const plain = await count({});
    expect(plain.isError).toBeFalsy();
    expect(plain.structuredContent).toMatchObject({ count: FIXTURE.length });
    const small = await count({ group_by: ['remote'], group_limit: 2 });
    expect(small.isError).toBeFalsy();
  } finally {
    await client.close();
    await tight.close();
  }
});

// A histogram (up to 400 buckets) or rate statistics can pass a budget set low: refused the same
// way, naming the argument that made the answer large; they used to be sent whatever their size.
it('count_opportunities: a histogram that would pass the budget is refused naming interval', async () => {
  const tight = await startFastApp(FIXTURE, { MCP_MAX_RESULT_BYTES: '1000' });
  const { key } = tight.reader();
  const client = await (v1 as NonNullable<typeof v1>).connect(new URL(`${tight.baseUrl}/mcp`), {
    'X-API-Key': key,
  });
  try {
    const rest = await get(
      tight.baseUrl,
      '/v1/opportunities/count?histogram=first_seen&interval=day',
      { key },
    );
    expect(Buffer.byteLength(rest.text)).toBeGreaterThan(1000);
    const refused = await client.callTool({
      name: 'count_opportunities',
      arguments: { histogram: 'first_seen', interval: 'day' },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      error: { code: 'invalid_filter', details: { parameter: 'interval', reason: 'out_of_range' } },
    });
    // Beside a grouping of two buckets, the histogram is still what made the answer large: the
    // refusal named group_limit, whose advice (lower it) could not help.
    const both = await client.callTool({
      name: 'count_opportunities',
      arguments: { group_by: ['remote'], group_limit: 2, histogram: 'first_seen', interval: 'day' },
    });
    expect(both.structuredContent).toMatchObject({
      error: { code: 'invalid_filter', details: { parameter: 'interval', reason: 'out_of_range' } },
    });
  } finally {
    await client.close();
    await tight.close();
  }
});
