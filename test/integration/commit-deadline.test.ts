import { randomUUID } from 'node:crypto';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { startCommitProxy, type CommitProxy } from '../support/pg-commit-proxy';
import { createTestContext, type TestContext } from '../support/harness';
import { expectError, get, newReader, type Reader } from '../support/read-http';
import { appOverStoreProxy } from '../support/store-proxy-app';

// contract §16.6.2: a delivery's COMMIT is never cut by the client-side query timeout
// (POSTGRES_TIMEOUT_MS). Once the database has the commit, the client gets the delivered page;
// a commit not confirmed within its own deadline (POSTGRES_COMMIT_TIMEOUT_MS) is a 503 that says
// the delivery may have been recorded, and a retry then finds its records free (repeats).
// The app's Postgres sits behind a proxy that delays the server's answers to COMMIT.

const TIMEOUT_MS = 300;
const COMMIT_TIMEOUT_MS = 2500;

let ctx: TestContext;
let proxy: CommitProxy;
let app: Awaited<ReturnType<typeof appOverStoreProxy<CommitProxy>>>;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
  app = await appOverStoreProxy(ctx, startCommitProxy, {
    POSTGRES_TIMEOUT_MS: TIMEOUT_MS,
    POSTGRES_COMMIT_TIMEOUT_MS: COMMIT_TIMEOUT_MS,
  });
  proxy = app.proxy;
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

/** What the ledger holds for the account (read past the proxy). */
async function ledger(reader: Reader): Promise<{ deliveries: number; requestIds: string[] }> {
  const deliveries = await ctx.deps.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM metering_deliveries WHERE account_id = $1',
    [reader.accountId],
  );
  const ids = await ctx.deps.pool.query<{ request_id: string }>(
    'SELECT request_id FROM metering_request_ids WHERE account_id = $1',
    [reader.accountId],
  );
  return {
    deliveries: Number(deliveries.rows[0]?.n),
    requestIds: ids.rows.map((r) => r.request_id),
  };
}

/** A reader whose key is already known to the app (authentication stays off the delayed path). */
async function warmReader(): Promise<Reader> {
  const reader = await newReader(ctx.deps);
  expect((await get(app.baseUrl, '/v1/usage', { key: reader.key })).status).toBe(200);
  return reader;
}

const listTwo = (reader: Reader, requestId: string) =>
  get(app.baseUrl, '/v1/opportunities?limit=2', {
    key: reader.key,
    headers: { 'X-Request-ID': requestId },
  });

it('a COMMIT answered after POSTGRES_TIMEOUT_MS still delivers the page it recorded', async () => {
  const reader = await warmReader();
  const before = proxy.commits;
  proxy.delayCommitReplies(TIMEOUT_MS * 3);
  let res;
  try {
    res = await listTwo(reader, `slow-commit-${randomUUID()}`);
  } finally {
    proxy.delayCommitReplies(0);
  }
  expect(proxy.commits).toBeGreaterThan(before);
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(2);
  expect(res.headers.get('x-service-new-opportunity-count')).toBe('2');
  expect((await ledger(reader)).deliveries).toBe(2);
});

it('a COMMIT never confirmed → 503 that says the delivery may have been recorded', async () => {
  const reader = await warmReader();
  const requestId = `lost-commit-${randomUUID()}`;
  proxy.delayCommitReplies(Infinity);
  let res;
  try {
    res = await listTwo(reader, requestId);
  } finally {
    proxy.delayCommitReplies(0);
  }
  expectError(res, 503, 'metering_unavailable');
  expect(res.body.error.message).toMatch(/may have been recorded/);
  expect(res.body.error.message).not.toMatch(/nothing was/i);
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  // The server had the COMMIT: the answer was honest, the delivery was recorded...
  expect(await ledger(reader)).toEqual({ deliveries: 2, requestIds: [requestId] });
  // ...and asking again costs nothing twice.
  const again = await listTwo(reader, `retry-${randomUUID()}`);
  expect(again.status).toBe(200);
  expect(again.body.data).toHaveLength(2);
  expect(again.headers.get('x-service-new-opportunity-count')).toBe('0');
  expect((await ledger(reader)).deliveries).toBe(2);
});
