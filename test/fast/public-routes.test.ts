import { AGENT_FIELDS, RECORD_TOKENS } from '../../src/domain/record-tokens';
import { FIXTURE } from '../support/read-fixture';
import { expectError, get } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';

// The routes without a key over the in-memory capabilities: taxonomy, preview and its rate limit,
// the documents (llms.txt, OpenAPI, /docs), health and readiness, metrics, unknown routes.

let app: FastApp;

beforeAll(async () => (app = await startFastApp(FIXTURE, { PREVIEW_REQUESTS_PER_MINUTE: '3' })));
afterAll(() => app.close());

const fetchPath = (path: string, init?: RequestInit) => fetch(app.baseUrl + path, init);

it('GET /v1/taxonomy/occupations: cacheable, 304 on its ETag', async () => {
  const res = await get(app.baseUrl, '/v1/taxonomy/occupations');
  expect(res.status).toBe(200);
  expect(res.body.nodes.length).toBeGreaterThan(10);
  expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  const etag = res.headers.get('etag') as string;
  const again = await fetchPath('/v1/taxonomy/occupations', { headers: { 'If-None-Match': etag } });
  expect(again.status).toBe(304);
});

it('GET /v1/preview/opportunities: live records only, redacted, then 429 past the per-minute limit', async () => {
  const res = await get(app.baseUrl, '/v1/preview/opportunities?job_family=data');
  expect(res.status).toBe(200);
  expect(res.body.data.length).toBeGreaterThan(0);
  expect(res.body.data.length).toBeLessThanOrEqual(5);
  for (const r of res.body.data) expect(r.liveness_status).toBe('live');
  expect(res.body.pagination.next_cursor).toBeNull();
  await get(app.baseUrl, '/v1/preview/opportunities');
  await get(app.baseUrl, '/v1/preview/opportunities');
  const refused = await get(app.baseUrl, '/v1/preview/opportunities');
  expectError(refused, 429, 'preview_rate_limit_exceeded');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
});

it('serves /llms.txt, /v1/openapi.json and /docs', async () => {
  const llms = await fetchPath('/llms.txt');
  expect(llms.status).toBe(200);
  const guide = await llms.text();
  expect(guide).toMatch(/\/v1\/opportunities/);
  // The size of a record in tokens, with and without fields.
  const { record } = RECORD_TOKENS;
  expect(guide).toContain(`A whole record is about ${record.whole} tokens`);
  expect(guide).toContain(
    `fields=${AGENT_FIELDS.join(',')} it is about ${record.agentFields} tokens`,
  );
  const openapi = await get(app.baseUrl, '/v1/openapi.json');
  expect(openapi.status).toBe(200);
  expect(openapi.body.openapi).toMatch(/^3\./);
  expect(Object.keys(openapi.body.paths)).toContain('/v1/opportunities');
  const docs = await fetchPath('/docs');
  expect(docs.status).toBe(200);
  expect(docs.headers.get('content-type')).toMatch(/text\/html/);
});

it('/healthz is alive; /readyz follows the probes', async () => {
  expect((await get(app.baseUrl, '/healthz')).body).toEqual({ status: 'ok' });
  expect((await get(app.baseUrl, '/readyz')).status).toBe(200);
  app.world.up.opensearch = false;
  const down = await get(app.baseUrl, '/readyz');
  app.world.up.opensearch = true;
  expect(down.status).toBe(503);
  expect(down.body).toEqual({
    status: 'unavailable',
    checks: { postgres: true, opensearch: false },
  });
});

it('/metrics answers without a token configured; an unknown route is 404 not_found', async () => {
  expect((await fetchPath('/metrics')).status).toBe(200);
  expectError(await get(app.baseUrl, '/v1/nothing-here'), 404, 'not_found');
});
