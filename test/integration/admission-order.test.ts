import { randomUUID } from 'node:crypto';
import { createTestContext, type TestContext } from '../support/harness';
import { newReader, type Reader } from '../support/read-http';
import { StatementRecorder } from '../support/pg-statements';

// contract §19.3, §17.2: the rate limit is checked before any Postgres work; a refused call spends no
// request id, and a flood of refused calls (REST and MCP alike) costs the database nothing.
// Authentication's own key lookup (api_keys, cached per key for about a second) is allowed.

let ctx: TestContext;
let reader: Reader;
const recorder = new StatementRecorder();

beforeAll(async () => {
  ctx = await createTestContext();
  // A Free account at its plan's 2 requests a second, whose window is already used up for the
  // next two minutes (the limiter's Redis counter, set ahead): every call below is refused.
  reader = await newReader(ctx.deps, { rps_override: null });
  if (!ctx.deps.redis) throw new Error('this test needs Redis (TEST_REDIS_URL)');
  // Only the read window: a search over MCP is a read, refused by the same limit as REST
  // (contract §21.10; the looser protocol window is the handshake's).
  await ctx.deps.redis.set(
    `rl:${ctx.deps.databaseName}:account:2:${reader.accountId}`,
    1_000_000,
    'PX',
    120_000,
  );
  recorder.install();
});
afterAll(async () => {
  recorder.uninstall();
  await ctx.close();
});

function request(i: number): Promise<Response> {
  const headers = { 'X-API-Key': reader.key, 'X-Request-ID': `flood-${i}` };
  switch (i % 4) {
    case 0:
      return fetch(`${ctx.baseUrl}/v1/opportunities?limit=5`, { headers });
    case 1:
      return fetch(`${ctx.baseUrl}/v1/opportunities/${randomUUID()}`, { headers });
    case 2:
      return fetch(`${ctx.baseUrl}/v1/opportunities/count`, { headers });
    default:
      return fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'search_opportunities', arguments: { limit: 5 } },
        }),
      });
  }
}

describe('admission order', () => {
  it('a refused call answers 429 with the 8.3 headers and spends no request id', async () => {
    const res = await request(0);
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      'rate_limit_exceeded',
    );
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('2');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('x-service-opportunity-limit')).toBe('1000000');
    expect(res.headers.get('x-service-opportunity-used')).toBe('0');
    expect(res.headers.get('x-service-plan')).toBe('free');
  });

  it('a search over MCP answers its 429 as a tool result, with the same headers', async () => {
    const res = await request(3);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      result: { isError: true, structuredContent: { error: { code: 'rate_limit_exceeded' } } },
    });
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('2');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('x-service-plan')).toBe('free');
  });

  it('a flood of 2,000 refused requests adds no database round trip', async () => {
    // Warm: the usage headers of this account are cached by the first refusal above.
    const refusals: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < 2000) {
        const i = next++;
        const res = await request(i);
        const text = await res.text();
        // A reading tool's 429 is a tool result (contract §21.5, docs/agents.md), REST's a status.
        const refused =
          i % 4 === 3
            ? res.status === 200 &&
              /"isError":true/.test(text) &&
              text.includes('rate_limit_exceeded')
            : res.status === 429;
        refusals.push(refused ? 'refused' : `${res.status} ${text.slice(0, 200)}`);
      }
    };
    const statements = await recorder.during(() => Promise.all(Array.from({ length: 16 }, worker)));

    expect(refusals).toHaveLength(2000);
    expect(refusals.filter((r) => r !== 'refused')).toEqual([]);
    const beyondAuth = statements.filter((sql) => !/\bapi_keys\b/.test(sql));
    expect(beyondAuth).toEqual([]);

    const { rows } = await ctx.deps.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM metering_request_ids WHERE account_id = $1',
      [reader.accountId],
    );
    expect(rows[0]?.n).toBe('0');
  });
});
