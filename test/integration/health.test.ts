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
