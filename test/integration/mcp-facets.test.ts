import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sdkClient } from '../support/sdk-client';
import { facetOracle } from '../support/facet-oracle';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE, expected, idsOf } from '../support/read-fixture';
import { newReader, type Reader } from '../support/read-http';

// contract §10.2 through the MCP SDK client: count_opportunities with group_by, group_limit and
// include_new_count; search_opportunities with unseen_only and max_new; the same codes as REST.

let ctx: TestContext;
let reader: Reader;
let client: Client;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [...FIXTURE]);
  reader = await newReader(ctx.deps);
  client = sdkClient('mcp-facets-test');
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${ctx.baseUrl}/mcp`), {
      requestInit: { headers: { 'X-API-Key': reader.key } },
    }),
  );
  await client.listTools(); // caches the output schemas: every result is validated against them
});
afterAll(async () => {
  await client.close();
  await ctx.close();
});

type Envelope = Record<string, unknown>;
async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: result.structuredContent as Envelope };
}
const errorOf = (body: Envelope) => body.error as { code: string; details?: { parameter: string } };

it('declares the new arguments and teaches the cheap path', async () => {
  const { tools } = await client.listTools();
  const search = tools.find((t) => t.name === 'search_opportunities');
  const count = tools.find((t) => t.name === 'count_opportunities');
  const sp = search?.inputSchema.properties as Record<string, Record<string, unknown>>;
  const cp = count?.inputSchema.properties as Record<string, Record<string, unknown>>;
  expect(sp.unseen_only).toMatchObject({ type: 'boolean' });
  expect(sp.max_new).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
  expect(cp.group_by).toMatchObject({ type: 'array', items: { type: 'string' } });
  expect(cp.group_limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  expect(cp.include_new_count).toMatchObject({ type: 'boolean' });
  expect(Object.keys(cp)).not.toContain('include');
  for (const tool of [search, count]) {
    expect(tool?.description).toMatch(/include_new_count/);
    expect(tool?.description).toMatch(/unseen_only/);
    expect(tool?.description).toMatch(/max_new/);
  }
});

it('counts facets like REST and the oracle', async () => {
  const { isError, body } = await call('count_opportunities', {
    job_family: ['data', 'software_engineering'],
    group_by: ['job_subfamily', 'remote'],
    group_limit: 3,
  });
  expect(isError).toBe(false);
  const { count, groups, other_count } = body;
  expect({ count, groups, other_count }).toEqual(
    facetOracle({ job_family: 'data,software_engineering' }, ['job_subfamily', 'remote'], 3),
  );
});

it('new_count, unseen_only and max_new share the ledger with REST', async () => {
  const before = await call('count_opportunities', { include_new_count: true });
  expect(before.body).toMatchObject({ new_count: FIXTURE.length, new_cost_millicents: 0 });

  const page = await call('search_opportunities', { limit: 10, max_new: 4 });
  expect(page.isError).toBe(false);
  const data = page.body.data as { id: string }[];
  expect(idsOf(data)).toEqual(idsOf(expected({}).slice(0, 4)));
  expect(page.body.pagination).toMatchObject({ returned: 4, has_more: true });

  const after = await call('count_opportunities', { include_new_count: true });
  expect(after.body.new_count).toBe(FIXTURE.length - 4);

  const unseen = await call('search_opportunities', { unseen_only: true, limit: 5 });
  expect(idsOf(unseen.body.data as { id: string }[])).toEqual(idsOf(expected({}).slice(4, 9)));
  expect(unseen.body.meta).toMatchObject({ applied_filters: { unseen_only: true } });
});

it.each([
  ['count_opportunities', { group_by: ['level', 'level'] }, 'invalid_filter', 'group_by'],
  ['count_opportunities', { group_by: ['salary'] }, 'invalid_filter', 'group_by'],
  ['count_opportunities', { group_limit: 0 }, 'validation_error', 'group_limit'],
  ['count_opportunities', { include_new_count: 'yes' }, 'validation_error', 'include_new_count'],
  ['count_opportunities', { include: ['new_count'] }, 'invalid_filter', 'include'],
  ['search_opportunities', { max_new: 101 }, 'validation_error', 'max_new'],
  ['search_opportunities', { unseen_only: 'true' }, 'validation_error', 'unseen_only'],
])('%s %j → %s', async (tool, args, code, parameter) => {
  const { isError, body } = await call(tool, args);
  expect(isError).toBe(true);
  expect(errorOf(body).code).toBe(code);
  expect(errorOf(body).details?.parameter).toBe(parameter);
});
