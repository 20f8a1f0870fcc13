import { taxonomyDocument } from '../../src/service/taxonomy-service';
import { FIXTURE, expected, idsOf } from '../support/read-fixture';
import { MCP_CLIENTS, type McpClient } from '../support/mcp-clients';
import { startFastApp, type FastApp } from './support/fast-app';

// /mcp (contract §21) through the official SDK clients over the in-memory capabilities: every
// tool, paging, and failures as isError results carrying the REST error envelope, for each client
// and protocol revision of the matrix (the 1.x client, the 2.x client pinned to 2025-06-18,
// 2025-11-25 and 2026-07-28, and the 2.x client negotiating).

type Envelope = Record<string, unknown> & { error?: { code: string; message?: string } };

let app: FastApp;

beforeAll(async () => {
  app = await startFastApp(FIXTURE);
});
afterAll(async () => {
  await app.close();
});

describe.each(MCP_CLIENTS)('$name', (kind) => {
  let client: McpClient;

  async function connect(key: string): Promise<McpClient> {
    const c = await kind.connect(new URL(`${app.baseUrl}/mcp`), { Authorization: `Bearer ${key}` });
    // Listing caches the output schemas: every later callTool validates structuredContent.
    await c.listTools();
    return c;
  }

  async function call(name: string, args: Record<string, unknown> = {}, c = client) {
    const result = await c.callTool({ name, arguments: args });
    const body = result.structuredContent as Envelope;
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(body) }]);
    return { isError: result.isError === true, body };
  }

  beforeAll(async () => {
    client = await connect(app.reader().key);
  });
  afterAll(async () => {
    await client.close();
  });

  it(`negotiates ${kind.revision}`, () => {
    expect(client.revision()).toBe(kind.revision);
  });

  it('reads the taxonomy resource', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['taxonomy://occupations']);
    const { contents } = await client.readResource({ uri: 'taxonomy://occupations' });
    const [content] = contents as { text: string }[];
    expect(JSON.parse(content?.text ?? '')).toEqual(taxonomyDocument(app.deps.taxonomy).body);
  });

  // The listing itself is checked by test/behaviour/mcp.ts, which this project runs too.
  it('search_opportunities pages with cursors through what REST would list', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const { isError, body } = await call('search_opportunities', {
        job_family: ['data'],
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      expect(isError).toBe(false);
      ids.push(...idsOf(body.data as { id: string }[]));
      cursor = (body.pagination as { next_cursor: string | null }).next_cursor ?? undefined;
    } while (cursor);
    expect(ids).toEqual(idsOf(expected({ job_family: 'data' })));
  });

  it('get_opportunity, count_opportunities, get_occupation_taxonomy and get_usage answer', async () => {
    const record = FIXTURE[5] as (typeof FIXTURE)[number];
    const found = await call('get_opportunity', { id: record.id });
    expect(found.isError).toBe(false);
    expect((found.body.data as { id: string }).id).toBe(record.id);

    const counted = await call('count_opportunities', {
      liveness_status: 'live',
      group_by: ['level'],
      include_new_count: true,
    });
    expect(counted.isError).toBe(false);
    expect(counted.body).toMatchObject({
      count: expected({ liveness_status: 'live' }).length,
      new_count: expect.any(Number),
    });

    const taxonomy = await call('get_occupation_taxonomy');
    expect(taxonomy.body).toEqual(taxonomyDocument(app.deps.taxonomy).body);

    const usage = await call('get_usage');
    expect(usage.isError).toBe(false);
    expect(usage.body).toMatchObject({ plan: 'free', opportunities: { used: expect.any(Number) } });
  });

  it.each([
    ['search_opportunities', { level: ['boss'] }, 'invalid_filter'],
    ['search_opportunities', { remote: 'maybe' }, 'validation_error'],
    ['search_opportunities', { cursor: 'not-a-cursor' }, 'malformed_cursor'],
    ['search_opportunities', { limit: 500 }, 'page_size_exceeded'],
    ['get_opportunity', { id: 'nope' }, 'validation_error'],
    ['get_opportunity', { id: '00000000-0000-4000-8000-000000000000' }, 'opportunity_not_found'],
    ['count_opportunities', { limit: 5 }, 'invalid_filter'],
  ])('%s %j is an isError result with code %s', async (name, args, code) => {
    const { isError, body } = await call(name, args);
    expect(isError).toBe(true);
    expect(body.error?.code).toBe(code);
  });

  it.each([
    [{}, 'missing', 'id is required: a uuid.'],
    [{ id: 'nope' }, 'bad_format', 'id must be a uuid.'],
  ])('get_opportunity %j names its id: %s', async (args, reason, message) => {
    const { isError, body } = await call('get_opportunity', args);
    expect(isError).toBe(true);
    expect(body.error).toMatchObject({
      code: 'validation_error',
      message,
      details: { parameter: 'id', reason },
    });
  });

  // contract §5.5: a key pasted as the id is an id that is not a uuid (it was refused as an
  // unknown parameter, a message that was simply false), and it is never shown back.
  it('get_opportunity with a key as its id: validation_error naming id, the key not shown', async () => {
    const pasted = `oppk_${'Q'.repeat(40)}`;
    const { isError, body } = await call('get_opportunity', { id: pasted });
    expect(isError).toBe(true);
    expect(body.error).toMatchObject({
      code: 'validation_error',
      details: { parameter: 'id', reason: 'bad_format' },
    });
    expect(JSON.stringify(body)).not.toContain(pasted);
  });

  // contract §6.14: a key as the value of an argument the tool does not know says so too (it was
  // only "Unknown parameter"), naming the argument and never showing the key.
  it.each([
    ['search_opportunities', 'api_key'],
    ['count_opportunities', 'token'],
    ['get_opportunity', 'api_key'],
    ['get_occupation_taxonomy', 'key'],
  ])('%s with a key as the value of %s: it holds a key, not shown', async (name, argument) => {
    const pasted = `oppk_${'Q'.repeat(40)}`;
    const args = name === 'get_opportunity' ? { id: '00000000-0000-4000-8000-000000000000' } : {};
    const { isError, body } = await call(name, { ...args, [argument]: pasted });
    expect(isError).toBe(true);
    expect(body.error).toMatchObject({
      code: 'invalid_filter',
      details: { parameter: argument, reason: 'unknown_parameter' },
    });
    expect(body.error?.message).toContain(`"${argument}" holds an API key`);
    expect(JSON.stringify(body)).not.toContain(pasted);
  });

  // contract §21.6.5: a lone surrogate (JSON can carry one) reads as REST reads the same bytes,
  // U+FFFD, in values and names: the echo and the error hold no text a strict JSON reader refuses.
  it('reads a lone surrogate in an argument, name or value, as U+FFFD', async () => {
    const city = await call('count_opportunities', { city: 'Z\ud800rich' });
    expect(city.isError).toBe(false);
    expect(city.body).toMatchObject({ meta: { applied_filters: { city: 'Z\ufffdrich' } } });
    const named = await call('count_opportunities', { 'ci\ud800ty': 'x' });
    expect(named.isError).toBe(true);
    expect(named.body.error).toMatchObject({
      code: 'invalid_filter',
      details: { parameter: 'ci\ufffdty', reason: 'unknown_parameter' },
    });
    const usage = await call('get_usage', { '\udc00': 1 });
    expect(usage.body.error).toMatchObject({ details: { parameter: '\ufffd' } });
  });

  it('a wallet that cannot pay is an isError result with 402 insufficient_balance', async () => {
    const poor = await connect(app.reader({ billing_model: 'legacy_wallet' }).key);
    const { isError, body } = await call('search_opportunities', { limit: 2 }, poor);
    expect(isError).toBe(true);
    expect(body.error?.code).toBe('insufficient_balance');
    await poor.close();
  });
});

it('without a key, /mcp is HTTP 401 with a Bearer challenge', async () => {
  const res = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(((await res.json()) as Envelope).error?.code).toBe('missing_api_key');
});
