import { randomUUID } from 'node:crypto';
import { postToolCall } from '../support/mcp-messages';

// contract §15.4, §18.4, §5.7: a key's own, lower allowance is the limit its usage headers show,
// and what is left of it their remaining (the stricter of key and account), on every response
// that carries them, and GET /v1/usage and get_usage say the same. Another key of the account
// keeps seeing the account's figures. One behaviour, two worlds: the Postgres meter
// (test/integration/key-allowance-usage.test.ts) and the in-memory one (test/fast/...).

/** An account (Growth, 100 included, balance 0) with a key of its own allowance 2 and a plain one. */
export interface KeyAllowanceWorld {
  baseUrl: string;
  /** A new account each call, so that each test starts with an empty ledger. */
  keys(): Promise<{ limited: string; plain: string }>;
  close(): Promise<void>;
}

export const GROWTH_100 = {
  plan: 'growth',
  allowance_override: 100,
  rps_override: 1000,
  balance_millicents: 0,
} as const;

export const KEY_ALLOWANCE = 2;

interface Reply {
  status: number;
  body: {
    data?: { id: string }[] | { id: string };
    error?: { code: string };
    opportunities?: { limit: number | null; used: number; remaining: number };
  };
  h: (name: string) => string | null;
}

export function keyAllowanceBehaviour(start: () => Promise<KeyAllowanceWorld>): void {
  let world: KeyAllowanceWorld;
  beforeAll(async () => {
    world = await start();
  });
  afterAll(() => world.close());

  async function get(path: string, key: string, headers: Record<string, string> = {}) {
    const res = await fetch(world.baseUrl + path, {
      headers: { 'X-API-Key': key, 'X-Request-ID': randomUUID(), ...headers },
    });
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : {}) as Reply['body'],
      h: (name: string) => res.headers.get(name),
    } satisfies Reply;
  }

  /** get_usage over /mcp (contract §21.5): its figures and the HTTP response's headers. */
  async function getUsageTool(key: string) {
    const res = await postToolCall(world.baseUrl, key, 'get_usage');
    const rpc = (await res.json()) as {
      result: { structuredContent: { opportunities: Reply['body']['opportunities'] } };
    };
    return { status: res.status, body: rpc.result.structuredContent, h: res.headers };
  }

  const figures = (r: Pick<Reply, 'h'>) => ({
    limit: r.h('x-service-opportunity-limit'),
    used: r.h('x-service-opportunity-used'),
    remaining: r.h('x-service-opportunity-remaining'),
  });

  it("shows the key's own allowance, and what is left of it, on pages, repeats, details, 304s and 402s", async () => {
    const { limited } = await world.keys();
    // The first page: two round trips in Postgres (no billing state held yet).
    const one = await get('/v1/opportunities?limit=1', limited);
    expect(one.status).toBe(200);
    expect(one.h('x-service-included-new-opportunity-count')).toBe('1');
    expect(figures(one)).toEqual({ limit: '2', used: '1', remaining: '1' });
    // One new of two: the one-round-trip charge in Postgres.
    const two = await get('/v1/opportunities?limit=2', limited);
    expect(two.status).toBe(200);
    expect(two.h('x-service-included-new-opportunity-count')).toBe('1');
    expect(figures(two)).toEqual({ limit: '2', used: '2', remaining: '0' });
    // The key's allowance is spent and the balance is 0: the error says so too.
    const refused = await get('/v1/opportunities?limit=3', limited);
    expect(refused.status).toBe(402);
    expect(refused.body.error?.code).toBe('insufficient_balance');
    expect(figures(refused)).toEqual({ limit: '2', used: '2', remaining: '0' });
    // A page of repeats (Postgres: known to this process, no read of the page).
    const repeats = await get('/v1/opportunities?limit=2', limited);
    expect(repeats.status).toBe(200);
    expect(repeats.h('x-service-new-opportunity-count')).toBe('0');
    expect(figures(repeats)).toEqual({ limit: '2', used: '2', remaining: '0' });
    // A 304 of the same page (contract §13).
    const etag = repeats.h('etag');
    expect(etag).not.toBeNull();
    const unchanged = await get('/v1/opportunities?limit=2', limited, {
      'If-None-Match': etag ?? '',
    });
    expect(unchanged.status).toBe(304);
    expect(figures(unchanged)).toEqual({ limit: '2', used: '2', remaining: '0' });
    // max_new=0 serves the repeats before the first new record, and that page revalidates too.
    const cut = await get('/v1/opportunities?limit=3&max_new=0', limited);
    expect(cut.status).toBe(200);
    expect(Array.isArray(cut.body.data) ? cut.body.data.length : -1).toBe(2);
    const cutAgain = await get('/v1/opportunities?limit=3&max_new=0', limited, {
      'If-None-Match': cut.h('etag') ?? '',
    });
    expect(cutAgain.status).toBe(304);
    // A detail of a record already delivered.
    const [first] = Array.isArray(repeats.body.data) ? repeats.body.data : [];
    const detail = await get(`/v1/opportunities/${first?.id ?? ''}`, limited);
    expect(detail.status).toBe(200);
    expect(figures(detail)).toEqual({ limit: '2', used: '2', remaining: '0' });
  });

  it('GET /v1/usage and get_usage say what the headers say, for each key of the account', async () => {
    const { limited, plain } = await world.keys();
    expect((await get('/v1/opportunities?limit=2', limited)).status).toBe(200);

    const own = await get('/v1/usage', limited);
    expect(own.status).toBe(200);
    expect(own.body.opportunities).toEqual({ limit: 2, used: 2, remaining: 0 });
    expect(figures(own)).toEqual({ limit: '2', used: '2', remaining: '0' });
    // A count (free) and a tools/list (a protocol message, from the usage cache) show them too.
    const count = await get('/v1/opportunities/count', limited);
    expect(count.status).toBe(200);
    expect(figures(count)).toEqual({ limit: '2', used: '2', remaining: '0' });
    const plainCount = await get('/v1/opportunities/count', plain);
    expect(figures(plainCount)).toEqual({ limit: '100', used: '2', remaining: '98' });
    const listed = await fetch(`${world.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'X-API-Key': limited,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-service-opportunity-limit')).toBe('2');
    expect(listed.headers.get('x-service-opportunity-remaining')).toBe('0');
    const tool = await getUsageTool(limited);
    expect(tool.status).toBe(200);
    expect(tool.body.opportunities).toEqual({ limit: 2, used: 2, remaining: 0 });
    expect(tool.h.get('x-service-opportunity-limit')).toBe('2');

    // The account's other key is held to the account alone (contract §15.4).
    const other = await get('/v1/usage', plain);
    expect(other.body.opportunities).toEqual({ limit: 100, used: 2, remaining: 98 });
    expect(figures(other)).toEqual({ limit: '100', used: '2', remaining: '98' });
    const page = await get('/v1/opportunities?limit=3', plain);
    expect(page.status).toBe(200);
    expect(page.h('x-service-included-new-opportunity-count')).toBe('1');
    expect(figures(page)).toEqual({ limit: '100', used: '3', remaining: '97' });
    // ...and the limited key, after the other key's delivery, still sees its own.
    const after = await get('/v1/usage', limited);
    expect(after.body.opportunities).toEqual({ limit: 2, used: 3, remaining: 0 });
  });

  // A refusal before the service (here a malformed X-Request-ID beside a good key) showed the
  // account's figures, from a cache entry the limited key's deliveries never refreshed.
  it("a 422 for a malformed X-Request-ID shows the key's own figures, as its deliveries left them", async () => {
    const { limited, plain } = await world.keys();
    const bad = { 'X-Request-ID': 'bad id' };
    const before = await get('/v1/opportunities?limit=1', limited, bad);
    expect(before.status).toBe(422);
    expect(figures(before)).toEqual({ limit: '2', used: '0', remaining: '2' });
    const otherBefore = await get('/v1/opportunities?limit=1', plain, bad);
    expect(figures(otherBefore)).toEqual({ limit: '100', used: '0', remaining: '100' });
    expect((await get('/v1/opportunities?limit=2', limited)).status).toBe(200);
    const after = await get('/v1/opportunities?limit=1', limited, bad);
    expect(after.status).toBe(422);
    expect(figures(after)).toEqual({ limit: '2', used: '2', remaining: '0' });
    // The account's other key sees the account, the limited key's deliveries included.
    const other = await get('/v1/opportunities?limit=1', plain, bad);
    expect(other.status).toBe(422);
    expect(figures(other)).toEqual({ limit: '100', used: '2', remaining: '98' });
    // The other key delivers: the limited key's refusal shows the account's Used as it now is
    // (its own entry, older than the account's, was shown as it was).
    expect((await get('/v1/opportunities?limit=4', plain)).status).toBe(200);
    const later = await get('/v1/opportunities?limit=1', limited, bad);
    expect(later.status).toBe(422);
    expect(figures(later)).toEqual({ limit: '2', used: '4', remaining: '0' });
  });

  it("a key's remaining counts only what it was given itself", async () => {
    const { limited, plain } = await world.keys();
    // The other key's delivery uses the account's allowance, not this key's.
    expect((await get('/v1/opportunities?limit=1', plain)).status).toBe(200);
    const own = await get('/v1/usage', limited);
    expect(own.body.opportunities).toEqual({ limit: 2, used: 1, remaining: 2 });
  });
}
