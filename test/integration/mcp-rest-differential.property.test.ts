import fc from 'fast-check';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE } from '../support/read-fixture';
import { get, newReader, type Reader } from '../support/read-http';
import { countArgs, detailIdArb, restQuery, searchArb, type Args } from '../support/fuzz/mcp-rest';
import { fuzzSettings } from '../support/fuzz/settings';
import { postToolCall } from '../support/mcp-messages';

// Differential property of contract §21.5, §21.6, §21.9 and §21.11: the MCP tools and their REST
// twins over one inventory (FIXTURE), each call on a fresh account of its own. A random search
// (1 to 3 filters, limit, fields, sometimes q, sort, unseen_only, max_new, sometimes one bad
// argument) is walked to its end on both surfaces: the ids in order, the records (for the fields
// asked), the count and the usage each account ends with must be equal; a bad argument is refused
// alike (tool result isError with the error envelope, REST 4xx, same code and details). The
// result budget is set low, so MCP pages are cut (contract §21.11): a cut page holds whole records,
// its cursor resumes without loss or repeat, and only what was returned is charged.
// `npm test` runs a fixed seed and few runs; FUZZ_RUNS and FUZZ_SEED (FUZZ_SEED=random) run more.

const {
  runs: RUNS,
  seed: SEED,
  timeout: TIMEOUT,
} = fuzzSettings({ runs: 12, seed: 20261130, msPerRun: 6_000 });
/** About four whole records a page: low enough that pages are cut, over one record's size. */
const BUDGET = 8_000;

let ctx: TestContext;
beforeAll(async () => {
  process.stderr.write(
    `[mcp-rest-differential] seed ${SEED}, ${RUNS} runs (FUZZ_SEED / FUZZ_RUNS)\n`,
  );
  ctx = await createTestContext({ MCP_MAX_RESULT_BYTES: String(BUDGET) });
  await storeAndIndex(ctx.deps, [...FIXTURE]);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const reader = (): Promise<Reader> => newReader(ctx.deps);

interface ToolAnswer {
  isError: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- envelopes are probed freely
  body: any;
  text: string;
}

/** One tools/call, raw JSON-RPC over HTTP with the key (contract §21.1, §21.2). */
async function tool(key: string, name: string, args: Args): Promise<ToolAnswer> {
  const res = await postToolCall(ctx.baseUrl, key, name, args, {
    'MCP-Protocol-Version': '2025-06-18',
  });
  const raw = await res.text();
  if (res.status !== 200) throw new Error(`POST /mcp ${name} -> ${res.status} ${raw}`);
  const message = JSON.parse(raw) as {
    result?: {
      isError?: boolean;
      structuredContent?: unknown;
      content?: { type: string; text: string }[];
    };
    error?: unknown;
  };
  if (!message.result) throw new Error(`POST /mcp ${name}: protocol error ${raw}`);
  const text = message.result.content?.find((c) => c.type === 'text')?.text ?? '';
  // contract §21.7.2: the same JSON as structuredContent and as a text block.
  expect(JSON.parse(text)).toEqual(message.result.structuredContent);
  return { isError: message.result.isError === true, body: message.result.structuredContent, text };
}

const errorOf = (body: { error?: { code?: unknown; details?: unknown } } | null) => ({
  code: body?.error?.code,
  details: body?.error?.details,
});

/** What one surface answered to a search walked to its end, or its first refusal. */
interface Walk {
  error?: { code: unknown; details: unknown };
  ids: string[];
  records: unknown[];
}

async function walkRest(key: string, args: Args): Promise<Walk> {
  const out: Walk = { ids: [], records: [] };
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const query = restQuery(cursor === null ? args : { ...args, cursor });
    const res = await get(ctx.baseUrl, `/v1/opportunities?${query}`, { key });
    if (res.status !== 200) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      return { ...out, error: errorOf(res.body) };
    }
    out.records.push(...res.body.data);
    cursor = res.body.pagination.next_cursor;
    if (cursor === null) break;
  }
  out.ids = out.records.map((r) => (r as { id: string }).id);
  return out;
}

/** Usage of an account as GET /v1/usage tells it: what was charged. */
async function charged(key: string) {
  const res = await get(ctx.baseUrl, '/v1/usage', { key });
  expect(res.status).toBe(200);
  return {
    opportunities: res.body.opportunities,
    balance_millicents: res.body.balance_millicents,
  };
}

/** The same through the get_usage tool (free, contract §21.5). */
async function chargedByTool(key: string) {
  const answer = await tool(key, 'get_usage', {});
  expect(answer.isError).toBe(false);
  return {
    opportunities: answer.body.opportunities,
    balance_millicents: answer.body.balance_millicents,
  };
}

async function walkMcp(key: string, args: Args): Promise<Walk> {
  const out: Walk = { ids: [], records: [] };
  let cursor: string | null = null;
  let cutAt: number | null = null;
  for (let page = 0; page < 400; page++) {
    const answer = await tool(
      key,
      'search_opportunities',
      cursor === null ? args : { ...args, cursor },
    );
    if (answer.isError) return { ...out, error: errorOf(answer.body) };
    const { data, pagination } = answer.body as {
      data: { id: string }[];
      pagination: { next_cursor: string | null; has_more: boolean; returned: number };
    };
    expect(pagination.returned).toBe(data.length);
    expect(pagination.has_more).toBe(pagination.next_cursor !== null);
    const bytes = Buffer.byteLength(answer.text);
    // contract §21.11.1-2: within the budget, unless the page is its one record.
    if (data.length > 1) expect(bytes).toBeLessThanOrEqual(BUDGET);
    if (page === 0 && args.max_new == null) {
      // contract §21.11.3: a fresh account is charged for the records returned, none other.
      const used = (await chargedByTool(key)).opportunities.used;
      expect({ page: 0, used }).toEqual({ page: 0, used: data.length });
    }
    if (cutAt !== null && data[0]) {
      // contract §21.11.2: the cut page stopped before the record that would pass the budget,
      // the record its cursor resumes at (a comma's byte beside it in the array).
      const next = Buffer.byteLength(JSON.stringify(data[0])) + 1;
      expect({ cutAt, next, over: cutAt + next > BUDGET }).toEqual({ cutAt, next, over: true });
    }
    const limit = typeof args.limit === 'number' ? args.limit : 25;
    const cut = pagination.has_more && data.length < limit && args.max_new == null;
    if (cut) tally('mcp page cut');
    // Same fields on the next page: its first record is the one the budget held back.
    cutAt = cut && args.unseen_only == null ? bytes : null;
    out.records.push(...data);
    cursor = pagination.next_cursor;
    if (cursor === null) break;
  }
  out.ids = out.records.map((r) => (r as { id: string }).id);
  return out;
}

/** Statuses seen, printed at the end: what the runs actually reached. */
const seen = new Map<string, number>();
const tally = (label: string) => seen.set(label, (seen.get(label) ?? 0) + 1);
afterAll(() => {
  const counts = [...seen].sort().map(([label, n]) => `${label}: ${n}`);
  process.stderr.write(`[mcp-rest-differential] ${counts.join(', ')}\n`);
});

async function searchAgrees(args: Args): Promise<void> {
  const [a, b] = await Promise.all([reader(), reader()]);
  const [rest, mcp] = await Promise.all([walkRest(a.key, args), walkMcp(b.key, args)]);
  tally(rest.error ? `refused ${String(rest.error.code)}` : `walked ${rest.ids.length}`);
  expect({ args, surface: 'mcp', ...mcp }).toEqual({ args, surface: 'mcp', ...rest });
  expect(new Set(mcp.ids).size).toBe(mcp.ids.length);
  const [restUsage, mcpUsage] = await Promise.all([charged(a.key), charged(b.key)]);
  expect({ args, usage: mcpUsage }).toEqual({ args, usage: restUsage });
  expect(await chargedByTool(b.key)).toEqual(mcpUsage);
}

async function countAgrees(args: Args): Promise<void> {
  const [a, b] = await Promise.all([reader(), reader()]);
  const cargs = countArgs(args);
  const [rest, mcp] = await Promise.all([
    get(ctx.baseUrl, `/v1/opportunities/count?${restQuery(cargs)}`, { key: a.key }),
    tool(b.key, 'count_opportunities', cargs),
  ]);
  if (rest.status === 200) {
    expect({ cargs, isError: mcp.isError, count: mcp.body.count }).toEqual({
      cargs,
      isError: false,
      count: rest.body.count,
    });
  } else {
    expect({ cargs, isError: mcp.isError, ...errorOf(mcp.body) }).toEqual({
      cargs,
      isError: true,
      ...errorOf(rest.body),
    });
  }
  // Counts are free on both surfaces.
  expect((await charged(b.key)).opportunities.used).toBe(0);
  expect((await charged(a.key)).opportunities.used).toBe(0);
}

async function detailAgrees(id: string, fields: readonly string[] | undefined): Promise<void> {
  const [a, b] = await Promise.all([reader(), reader()]);
  const args: Args = fields ? { id, fields } : { id };
  const query = fields ? `?fields=${encodeURIComponent(fields.join(','))}` : '';
  const [rest, mcp] = await Promise.all([
    get(ctx.baseUrl, `/v1/opportunities/${encodeURIComponent(id)}${query}`, { key: a.key }),
    tool(b.key, 'get_opportunity', args),
  ]);
  tally(`detail ${rest.status}`);
  if (rest.status === 200) {
    expect({ args, isError: mcp.isError, data: mcp.body.data }).toEqual({
      args,
      isError: false,
      data: rest.body.data,
    });
  } else {
    const restError = errorOf(rest.body);
    // The tool names its argument `id` where REST names the path parameter (tools.ts).
    const details = restError.details as { parameter?: string } | undefined;
    const expected =
      details?.parameter === 'opportunity_id'
        ? { ...restError, details: { ...details, parameter: 'id' } }
        : restError;
    expect({ args, isError: mcp.isError, ...errorOf(mcp.body) }).toEqual({
      args,
      isError: true,
      ...expected,
    });
  }
  expect(await charged(b.key)).toEqual(await charged(a.key));
}

describe('MCP tools and REST agree over one inventory (contract §21.5, §21.6, §21.11)', () => {
  it(
    'search_opportunities walks as the list does; count and detail as theirs do',
    () =>
      fc.assert(
        fc.asyncProperty(
          searchArb,
          detailIdArb,
          fc.option(fc.constantFrom(['title'], ['rate', 'location'], ['evidence']), {
            nil: undefined,
          }),
          async ({ args }, id, fields) => {
            await searchAgrees(args);
            await countAgrees(args);
            await detailAgrees(id, fields);
          },
        ),
        { seed: SEED, numRuns: RUNS, verbose: 1 },
      ),
    TIMEOUT,
  );

  it.each([
    ['every field', {}],
    ['two fields', { fields: ['title', 'rate'] }],
  ])(
    'a walk cut by the result budget (%s) delivers what the list delivers, charged alike',
    async (_label, extra) => {
      const args: Args = { limit: 100, ...extra };
      await searchAgrees(args);
    },
    60_000,
  );
});
