import { appOverHeldSearch } from '../support/held-search-app';
import { createTestContext, type TestContext } from '../support/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('health', () => {
  it('reports the process alive', async () => {
    const res = await fetch(`${ctx.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('reports ready when Postgres and OpenSearch answer', async () => {
    const res = await fetch(`${ctx.baseUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: { postgres: true, opensearch: true },
    });
  });

  // A hung engine held /readyz for the search call's whole deadline (5 s by default, 60 s here),
  // past any load balancer's probe timeout.
  it('reports unavailable within about a second while OpenSearch hangs', async () => {
    const held = await appOverHeldSearch(ctx);
    try {
      held.proxy.hang();
      const res = await fetch(`${held.baseUrl}/readyz`, { signal: AbortSignal.timeout(15_000) });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'unavailable',
        checks: { postgres: true, opensearch: false },
      });
    } finally {
      await held.close();
    }
  });

  it('answers an unknown route with the error envelope', async () => {
    const res = await fetch(`${ctx.baseUrl}/nope`, { headers: { 'X-Request-ID': 'req-1' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        code: 'not_found',
        message: 'No such route; see /v1/openapi.json for the routes.',
        request_id: 'req-1',
      },
    });
  });
});
