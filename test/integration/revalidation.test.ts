import { randomUUID } from 'node:crypto';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { ROOMY } from '../support/factories';
import { rawRequest } from '../support/raw-http';

// contract §13 "Free revalidation": ETag on list and count; If-None-Match → 304 with no body, the
// usage and rate-limit headers, no usage figure changed and no request id spent; a list page with a
// record the account has not received this period is served and metered as usual.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(
    ctx.deps,
    Array.from({ length: 6 }, (_, i) =>
      makeRecord({ published_at: `2026-10-0${i + 1}T00:00:00Z` }),
    ),
  );
});
afterAll(() => ctx.close());

async function newKey() {
  const account = await createAccount(ctx.deps.pool, { plan: 'growth', ...ROOMY });
  return { account, key: (await createApiKey(ctx.deps.pool, { accountId: account.id })).key };
}

/**
 * A GET with exactly these headers, as curl sends it. Not fetch: a conditional fetch adds
 * `Cache-Control: no-cache` (the Fetch standard's no-store mode), which hid that express's
 * res.send turned a charged 200 into a 304 with no body whenever the tags matched.
 */
async function get(path: string, key: string, headers: Record<string, string> = {}) {
  const lines = Object.entries({ 'X-API-Key': key, ...headers }).map(([n, v]) => `${n}: ${v}`);
  const res = await rawRequest(ctx.baseUrl, [`GET ${path} HTTP/1.1`, ...lines].join('\r\n'));
  return {
    status: res.status,
    text: res.body,
    h: (n: string) => res.headers[n.toLowerCase()] ?? null,
  };
}

const figures = (h: (n: string) => string | null) => ({
  used: h('x-service-opportunity-used'),
  remaining: h('x-service-opportunity-remaining'),
  balance: h('x-service-balance-millicents'),
  new: h('x-service-new-opportunity-count'),
  charge: h('x-service-usage-charge-millicents'),
});

async function spentIds(accountId: string, requestId: string): Promise<number> {
  const { rows } = await ctx.deps.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM metering_request_ids WHERE account_id = $1 AND request_id = $2',
    [accountId, requestId],
  );
  return rows[0]?.n ?? -1;
}

describe('count', () => {
  it('carries a weak ETag; a matching If-None-Match gets 304 with the headers and no body', async () => {
    const { key } = await newKey();
    const first = await get('/v1/opportunities/count?country=US', key);
    expect(first.status).toBe(200);
    const etag = first.h('etag') ?? '';
    expect(etag).toMatch(/^W\/"[^"]+"$/);
    const strong = etag.slice(2);
    for (const field of [etag, strong, `"other", ${etag}`, '*']) {
      const again = await get('/v1/opportunities/count?country=US', key, {
        'If-None-Match': field,
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.h('etag')).toBe(etag);
      expect(again.h('x-ratelimit-limit')).toBe('1000');
      expect(again.h('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(figures(again.h)).toEqual(figures(first.h));
    }
    // Other filters: another response, another tag.
    const other = await get('/v1/opportunities/count?country=GB', key, { 'If-None-Match': etag });
    expect(other.status).toBe(200);
    expect(other.h('etag')).not.toBe(etag);
    expect(
      (await get('/v1/opportunities/count?country=US', key, { 'If-None-Match': '"nope"' })).status,
    ).toBe(200);
  });
});

describe('list', () => {
  it('304 for a page of repeats: no usage figure changes and the request id is not spent', async () => {
    const { account, key } = await newKey();
    const first = await get('/v1/opportunities?limit=3', key);
    expect(first.status).toBe(200);
    expect(figures(first.h)).toMatchObject({ used: '3', new: '3' });
    const etag = first.h('etag') ?? '';
    expect(etag).toMatch(/^W\/"[^"]+"$/);

    const id = `reval-${randomUUID()}`;
    for (let i = 0; i < 2; i++) {
      const again = await get('/v1/opportunities?limit=3', key, {
        'If-None-Match': etag,
        'X-Request-ID': id,
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.h('etag')).toBe(etag);
      expect(again.h('x-request-id')).toBe(id);
      expect(again.h('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(figures(again.h)).toEqual({ ...figures(first.h), new: '0', charge: '0' });
      expect(await spentIds(account.id, id)).toBe(0);
    }
    // The id was never spent, so it still serves a page.
    const served = await get('/v1/opportunities?limit=3', key, { 'X-Request-ID': id });
    expect(served.status).toBe(200);
    expect(served.h('etag')).toBe(etag);
    expect(await spentIds(account.id, id)).toBe(1);
  });

  it('200 and metered when the page has a record this account has not received', async () => {
    // Without a next page the body is the same for every account, so the tag is too.
    const a = await newKey();
    const all = await get('/v1/opportunities?limit=10', a.key);
    const etag = all.h('etag') ?? '';
    const b = await newKey();
    const partial = await get('/v1/opportunities?limit=2', b.key);
    expect(figures(partial.h)).toMatchObject({ used: '2' });
    const id = `reval-${randomUUID()}`;
    const served = await get('/v1/opportunities?limit=10', b.key, {
      'If-None-Match': etag,
      'X-Request-ID': id,
    });
    expect(served.status).toBe(200);
    expect(served.h('etag')).toBe(etag);
    expect(figures(served.h)).toMatchObject({ used: '6', new: '4' });
    expect(await spentIds(b.account.id, id)).toBe(1);
    expect(
      (
        await get('/v1/opportunities?limit=10', b.key, {
          'If-None-Match': etag,
          'X-Request-ID': id,
        })
      ).status,
    ).toBe(304);
  });

  // contract §11.2.4, §13.3: max_new=0 serves the repeats before the first new record. That page,
  // sent back with its own tag, is unchanged and free: it was answered 200 (the tag compared was
  // the uncut page's), spending the request id every time.
  it.each([
    ['repeats before a new record', 2],
    ['no repeat before the first new record (an empty page)', 0],
  ])('304 for a max_new=0 page of %s', async (_label, delivered) => {
    const { account, key } = await newKey();
    if (delivered > 0) await get(`/v1/opportunities?limit=${delivered}`, key);
    const path = '/v1/opportunities?limit=5&max_new=0';
    const first = await get(path, key);
    expect(first.status).toBe(200);
    const body = JSON.parse(first.text) as { pagination: { returned: number; has_more: boolean } };
    expect(body.pagination).toMatchObject({ returned: delivered, has_more: true });
    const etag = first.h('etag') ?? '';
    const id = `reval-${randomUUID()}`;
    for (let i = 0; i < 2; i++) {
      const again = await get(path, key, { 'If-None-Match': etag, 'X-Request-ID': id });
      expect(again.status).toBe(304);
      expect(again.h('etag')).toBe(etag);
      expect(await spentIds(account.id, id)).toBe(0);
    }
    // A tag of another page is still a 200.
    const other = await get(path, key, { 'If-None-Match': 'W/"other"' });
    expect(other.status).toBe(200);
  });

  it('a conditional request that fails still spends its id; a spent id is still refused', async () => {
    const { account, key } = await newKey();
    const id = `reval-${randomUUID()}`;
    const bad = await get('/v1/opportunities?level=ceo', key, {
      'If-None-Match': '*',
      'X-Request-ID': id,
    });
    expect(bad.status).toBe(400);
    expect(await spentIds(account.id, id)).toBe(1);
    const reused = await get('/v1/opportunities?limit=1', key, {
      'If-None-Match': '"nope"',
      'X-Request-ID': id,
    });
    expect(reused.status).toBe(409);
  });
});

// Express answers `If-None-Match: *` with a bodiless 304 on any 2xx by itself; only the routes
// that have validators may answer 304 (contract §13), and those without stay 200 with their body.
describe('If-None-Match: * where there is no validator', () => {
  // As bytes: fetch adds `Cache-Control: no-cache` to a conditional request, which express heeds.
  const conditional = (path: string) =>
    rawRequest(ctx.baseUrl, `GET ${path} HTTP/1.1\r\nIf-None-Match: *`);

  it.each(['/healthz', '/readyz', '/v1/preview/opportunities', '/llms.txt', '/v1/openapi.json'])(
    '%s → 200 with its body',
    async (path) => {
      const res = await conditional(path);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
    },
  );

  it('the taxonomy, which has a validator, still answers 304', async () => {
    expect((await conditional('/v1/taxonomy/occupations')).status).toBe(304);
  });
});
