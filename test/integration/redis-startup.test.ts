import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createTestContext } from '../support/harness';

// Start-up waits (briefly) for Redis. A decision taken in process before the connection was up
// split a window between process memory and Redis, so a fresh instance admitted more than the
// limit (the preview's 2 a minute let a third request through in a loaded full test run).

/** A TCP forwarder to Redis that holds every new connection for `delayMs` first (a slow link). */
async function slowLink(delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const target = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    client.pause();
    sockets.add(client);
    client.on('error', () => undefined);
    setTimeout(() => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      sockets.add(upstream);
      upstream.on('error', () => undefined);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.resume();
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

it('a fresh instance on a slow Redis link counts its first requests in Redis, not split', async () => {
  const link = await slowLink(2000);
  const ctx = await createTestContext({
    REDIS_URL: `redis://127.0.0.1:${link.port}`,
    REDIS_TIMEOUT_MS: '8000',
    PREVIEW_REQUESTS_PER_MINUTE: '2',
  });
  try {
    expect(ctx.deps.redis?.status).toBe('ready');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await fetch(`${ctx.baseUrl}/v1/preview/opportunities`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  } finally {
    await ctx.close();
    await link.close();
  }
});

it('never waits on a Redis that is down past its timeout: start-up goes on, limits in process', async () => {
  const ctx = await createTestContext({
    REDIS_URL: 'redis://127.0.0.1:1',
    REDIS_TIMEOUT_MS: '300',
  });
  try {
    expect(ctx.deps.redis?.status).not.toBe('ready');
    expect((await fetch(`${ctx.baseUrl}/v1/preview/opportunities`)).status).toBe(200);
  } finally {
    await ctx.close();
  }
});
