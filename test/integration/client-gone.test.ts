import { connect } from 'node:net';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { appOverHeldSearch } from '../support/held-search-app';
import { createTestContext, type TestContext } from '../support/harness';
import { newReader } from '../support/read-http';

// contract §16.1: what is paid for is what is delivered. A client that closed its connection while
// its page was being searched was still charged for it: the charge went to the store 10-20 ms
// after the service had seen the client leave. The search engine is held here (a proxy that keeps
// the search until released) so that the client is gone, for certain, before the page is found.

let ctx: TestContext;
let held: Awaited<ReturnType<typeof appOverHeldSearch>>;

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, [makeRecord(), makeRecord(), makeRecord()]);
  held = await appOverHeldSearch(ctx);
});
afterAll(async () => {
  await held.close();
  await ctx.close();
});

const delivered = async (accountId: string) =>
  Number(
    (
      await ctx.deps.pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM metering_deliveries WHERE account_id = $1',
        [accountId],
      )
    ).rows[0]?.n,
  );

/** Sends `path` with the key on a raw connection; resolves once the server has the request. */
function send(path: string, key: string) {
  const { hostname, port } = new URL(held.baseUrl);
  const socket = connect(Number(port), hostname);
  let reply = '';
  socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(reply)));
  return { socket, closed };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`never: ${what}`);
}

it('a list page whose client left while it was searched is not charged', async () => {
  const path = '/v1/opportunities?limit=3';
  const stays = await newReader(ctx.deps);
  const leaves = await newReader(ctx.deps);
  held.proxy.hold();
  // Through the same held engine, a client that stays is served and charged: the control.
  const served = send(path, stays.key);
  const gone = send(path, leaves.key);
  await until(() => held.proxy.heldRequests >= 2, 'both searches held');
  gone.socket.destroy();
  // The server sees the close before the engine answers.
  await new Promise((r) => setTimeout(r, 200));
  held.proxy.release();

  expect(await served.closed).toMatch(/^HTTP\/1\.1 200/);
  // The page of the client that left had every chance to be charged by now.
  await new Promise((r) => setTimeout(r, 500));
  expect(await delivered(stays.accountId)).toBe(3);
  expect(await delivered(leaves.accountId)).toBe(0);
});

// A client that closed at once (its request written, then its connection ended) was charged in 4
// of 5 tries: it had left while its key was looked up, before the route could listen for the close.
it('a list page whose client left at once, before its key was checked, is not charged', async () => {
  const readers = await Promise.all(Array.from({ length: 5 }, () => newReader(ctx.deps)));
  const { hostname, port } = new URL(held.baseUrl);
  await Promise.all(
    readers.map(
      (reader) =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), hostname, () => {
            socket.end(
              `GET /v1/opportunities?limit=3 HTTP/1.1\r\nHost: a\r\nX-API-Key: ${reader.key}\r\n\r\n`,
            );
          });
          socket.on('error', () => undefined);
          socket.on('close', () => resolve());
          socket.resume();
        }),
    ),
  );
  // Every page had every chance to be charged by now.
  await new Promise((r) => setTimeout(r, 1000));
  for (const reader of readers) expect(await delivered(reader.accountId)).toBe(0);
});
