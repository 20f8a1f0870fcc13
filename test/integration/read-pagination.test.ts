import { CompactSign } from 'jose';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { CursorCodec } from '../../src/search/cursor';
import { createApiKey } from '../../src/store/api-key-repo';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE, expected, idsOf, inListOrder, qs } from '../support/read-fixture';
import { expectError, get, listAll, newReader, serve, type Reader } from '../support/read-http';

// Order and keyset pagination (contract §8): total order, completeness under a fixed inventory,
// has_more/next_cursor, limit changes, and every cursor defect → 400 malformed_cursor.

const NEW_SECRET = 'new-cursor-secret-0123456789abcdef-XYZ';
const OLD_SECRET = 'old-cursor-secret-0123456789abcdef-XYZ';
const enc = new TextEncoder();

let ctx: TestContext;
let reader: Reader;

beforeAll(async () => {
  ctx = await createTestContext({ CURSOR_SIGNING_KEYS: `new=${NEW_SECRET},old=${OLD_SECRET}` });
  reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, [...FIXTURE]);
});
afterAll(() => ctx.close());

const list = (path: string, key = reader.key, baseUrl = ctx.baseUrl) =>
  get(baseUrl, `/v1/opportunities?${path}`, { key });

async function firstCursor(query: string, key = reader.key, baseUrl = ctx.baseUrl) {
  const res = await list(`${query}${query ? '&' : ''}limit=3`, key, baseUrl);
  expect(res.status).toBe(200);
  const cursor = res.body.pagination.next_cursor as string;
  expect(typeof cursor).toBe('string');
  return cursor;
}

const withCursor = (query: string, cursor: string, limit = 3) =>
  `${query}${query ? '&' : ''}limit=${limit}&cursor=${encodeURIComponent(cursor)}`;

function expectMalformed(res: Awaited<ReturnType<typeof get>>) {
  expectError(res, 400, 'malformed_cursor', { parameter: 'cursor' });
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** The JWS parts and decoded payload of a cursor. */
function parts(cursor: string) {
  const [header = '', payload = '', signature = ''] = cursor.split('.');
  return {
    header,
    payload,
    signature,
    claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
  };
}

const sign = (claims: unknown, kid: string, secret: string, alg = 'HS256') =>
  new CompactSign(enc.encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg, kid })
    .sign(enc.encode(secret));

describe('order', () => {
  it('is freshness desc then id asc, total and stable across requests', async () => {
    const want = idsOf(inListOrder(FIXTURE));
    const a = await list('limit=100');
    const b = await list('limit=100');
    expect(idsOf(a.body.data)).toEqual(want);
    expect(idsOf(b.body.data)).toEqual(want);
    expect(a.body.pagination).toEqual({
      returned: FIXTURE.length,
      next_cursor: null,
      has_more: false,
      limit: 100,
    });
  });
});

describe('paging a fixed inventory', () => {
  it.each([
    ['no filter', ''],
    ['a list filter', qs({ level: 'senior,staff,unknown' })],
    ['a taxonomy filter', qs({ job_family: 'data,software_engineering' })],
    ['a date filter', qs({ fresh_after: '2026-09-05' })],
  ])('limit=3 visits every match exactly once (%s)', async (_label, query) => {
    const small = await listAll(ctx.baseUrl, reader.key, query, 3);
    const big = await listAll(ctx.baseUrl, reader.key, query, 100);
    const oracle = idsOf(expected(Object.fromEntries(new URLSearchParams(query))));
    expect(idsOf(small.records)).toEqual(oracle);
    expect(idsOf(big.records)).toEqual(oracle);
    expect(new Set(idsOf(small.records)).size).toBe(oracle.length);
    expect(small.pages).toHaveLength(Math.max(1, Math.ceil(oracle.length / 3)));
  });

  it('a page that ends exactly at the last match has has_more=false and no cursor', async () => {
    const all = await list(`limit=${FIXTURE.length}`);
    expect(all.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect(all.body.data).toHaveLength(FIXTURE.length);
    const cursor = await firstCursor('');
    const rest = await list(withCursor('', cursor, FIXTURE.length - 3));
    expect(rest.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('the limit may change between pages; a cursor can be replayed', async () => {
    const want = idsOf(inListOrder(FIXTURE));
    const cursor = await firstCursor('');
    const next = await list(withCursor('', cursor, 10));
    expect(next.status).toBe(200);
    expect(idsOf(next.body.data)).toEqual(want.slice(3, 13));
    expect(next.body.pagination.limit).toBe(10);
    const again = await list(withCursor('', cursor, 10));
    expect(idsOf(again.body.data)).toEqual(want.slice(3, 13));
  });

  it('equivalent spellings of the same normalized filters keep the cursor valid', async () => {
    const cursor = await firstCursor(qs({ country: 'us', published_after: '2026-09-02' }));
    const res = await list(
      withCursor(qs({ country: 'US', published_after: '2026-09-02T00:00:00.000Z' }), cursor),
    );
    expect(res.status).toBe(200);
    const want = idsOf(expected({ country: 'US', published_after: '2026-09-02' }));
    expect(idsOf(res.body.data)).toEqual(want.slice(3, 6));
  });

  it('another key of the same account may continue (the cursor is bound to the account)', async () => {
    const other = await createApiKey(ctx.deps.pool, { accountId: reader.accountId });
    const cursor = await firstCursor('');
    const res = await list(withCursor('', cursor), other.key);
    expect(res.status).toBe(200);
    expect(idsOf(res.body.data)).toEqual(idsOf(inListOrder(FIXTURE)).slice(3, 6));
  });
});

describe('cursor defects → 400 malformed_cursor', () => {
  it.each([
    ['other filters', qs({ level: 'staff' })],
    ['filters removed', ''],
    ['a filter added', qs({ level: 'senior', country: 'US' })],
  ])('%s', async (_label, query) => {
    const cursor = await firstCursor(qs({ level: 'senior' }));
    expectMalformed(await list(withCursor(query, cursor)));
  });

  it.each([
    ['garbage', 'abc'],
    ['three garbage segments', 'a.b.c'],
    ['very long', 'x'.repeat(3000)],
    ['not base64url', '!!!.???.###'],
  ])('%s', async (_label, cursor) => {
    expectMalformed(await list(withCursor('', cursor)));
  });

  it('a tampered payload or signature', async () => {
    const cursor = await firstCursor('');
    const p = parts(cursor);
    const claims = { ...p.claims, s: [1, '00000000-0000-4000-8000-000000000000'] };
    const forgedPayload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    expectMalformed(await list(withCursor('', `${p.header}.${forgedPayload}.${p.signature}`)));
    const mid = Math.floor(p.signature.length / 2);
    const flipped = p.signature[mid] === 'A' ? 'B' : 'A';
    const badSig = `${p.signature.slice(0, mid)}${flipped}${p.signature.slice(mid + 1)}`;
    expectMalformed(await list(withCursor('', `${p.header}.${p.payload}.${badSig}`)));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'new' })).toString('base64url')}.${p.payload}.`;
    expectMalformed(await list(withCursor('', none)));
  });

  it("another account's cursor, even for the same filters", async () => {
    const other = await newReader(ctx.deps);
    const cursor = await firstCursor('', other.key);
    expectMalformed(await list(withCursor('', cursor)));
  });

  it('an unknown kid, or a known kid with the wrong secret; the right key verifies', async () => {
    const { claims } = parts(await firstCursor(''));
    const intruder = await sign(claims, 'intruder', 'some-other-secret-0123456789abcdefgh');
    expectMalformed(await list(withCursor('', intruder)));
    const wrongSecret = await sign(claims, 'new', 'some-other-secret-0123456789abcdefgh');
    expectMalformed(await list(withCursor('', wrongSecret)));
    // Control: the same claims signed with the configured secret are accepted.
    const genuine = await sign(claims, 'new', NEW_SECRET);
    expect((await list(withCursor('', genuine))).status).toBe(200);
  });
});

describe('key rotation (CURSOR_SIGNING_KEYS)', () => {
  // Two apps over the SAME database and index (ctx.deps), differing only in their cursor keys: a
  // second createTestContext would have its own database and index, so its cursors could not be
  // compared page for page.
  it("a cursor of an app with 'old=…' verifies in the app with 'new=…,old=…'", async () => {
    const oldApp = await serve(
      createApp(
        compose({ ...ctx.deps, cursor: new CursorCodec([{ kid: 'old', secret: OLD_SECRET }]) }),
      ),
    );
    const retired = await serve(
      createApp(
        compose({ ...ctx.deps, cursor: new CursorCodec([{ kid: 'new', secret: NEW_SECRET }]) }),
      ),
    );
    try {
      const query = qs({ job_family: 'data' });
      const oldCursor = await firstCursor(query, reader.key, oldApp.baseUrl);
      expect(JSON.parse(Buffer.from(parts(oldCursor).header, 'base64url').toString())).toEqual({
        alg: 'HS256',
        kid: 'old',
      });
      const res = await list(withCursor(query, oldCursor));
      expect(res.status).toBe(200);
      expect(idsOf(res.body.data)).toEqual(idsOf(expected({ job_family: 'data' })).slice(3, 6));
      // The new app signs with its first key, which the old app does not know.
      const newCursor = await firstCursor(query);
      expect(JSON.parse(Buffer.from(parts(newCursor).header, 'base64url').toString())).toEqual({
        alg: 'HS256',
        kid: 'new',
      });
      expectMalformed(await list(withCursor(query, newCursor), reader.key, oldApp.baseUrl));
      // Once 'old' is removed from the keys, its cursors are invalid.
      expectMalformed(await list(withCursor(query, oldCursor), reader.key, retired.baseUrl));
    } finally {
      await oldApp.close();
      await retired.close();
    }
  });
});
