import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { CONTRACT_FILTERS, FIXTURE } from '../support/read-fixture';
import { get, newReader, type Reader } from '../support/read-http';

// GET /v1/openapi.json (contract §5.8.1): a valid OpenAPI 3.1 document that matches the
// routes actually served, the contract's parameter lists, and the responses actually sent.

interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { name: string; in: string; style?: string; explode?: boolean; schema?: object }[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
  security?: unknown[];
}
interface Doc {
  openapi: string;
  info: { version: string; description: string };
  tags: { name: string; description?: string }[];
  security?: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

let ctx: TestContext;
let reader: Reader;
let doc: Doc;

beforeAll(async () => {
  ctx = await createTestContext();
  reader = await newReader(ctx.deps);
  await storeAndIndex(ctx.deps, FIXTURE.slice(0, 8));
  const res = await get(ctx.baseUrl, '/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as Doc;
});
afterAll(() => ctx.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
const op = (path: string) => doc.paths[path]?.get as Operation;
const queryNames = (path: string) =>
  (op(path).parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => p.name)
    .sort();

interface Layer {
  /** The mount path of a router layer ('/' when mounted without one). */
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every "METHOD /path" the express app serves, in OpenAPI path syntax. */
function servedRoutes(): string[] {
  const app = createApp(compose(ctx.deps)) as unknown as { router: { stack: Layer[] } };
  const out: string[] = [];
  const join = (prefix: string, path: string) =>
    path === '/' ? prefix || '/' : `${prefix}${path}`.replace(/\/+/g, '/');
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = join(prefix, layer.route.path).replace(/:([A-Za-z_]+)/g, '{$1}');
        for (const m of Object.keys(layer.route.methods)) {
          out.push(`${m === '_all' ? 'ALL' : m.toUpperCase()} ${path}`);
        }
      } else if (layer.handle?.stack) {
        const mount = layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, join(prefix, mount) === '/' ? '' : join(prefix, mount));
      }
    }
  };
  walk(app.router.stack, '');
  return out.sort();
}

describe('the document', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0-beta.1');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  // Redocly's recommended rules, zero problems (errors and warnings alike).
  it('passes Redocly lint (recommended) with no error and no warning', async () => {
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  // contract §5.8.1: shared schemas are named components, reused by $ref, never inlined again.
  it('names the shared schemas and references the record instead of inlining it', () => {
    for (const name of [
      'Opportunity', 'ListEnvelope', 'CountEnvelope', 'DetailEnvelope', 'ErrorEnvelope', 'Taxonomy',
      'HistogramBucket', 'RateStatistics',
    ]) expect(Object.keys(doc.components.schemas)).toContain(name); // prettier-ignore
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, never> }>;
    // contract §7.6: a record is whole, or sparse when the request named fields.
    const served = {
      anyOf: [
        { $ref: '#/components/schemas/Opportunity' },
        { $ref: '#/components/schemas/SparseOpportunity' },
      ],
    };
    expect(schemas.ListEnvelope?.properties.data).toEqual({ type: 'array', items: served });
    expect(schemas.DetailEnvelope?.properties.data).toEqual(served);
    expect(schemas.PreviewListEnvelope?.properties.data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/PreviewOpportunity' },
    });
    // contract §10.4, §10.5: the histogram and rate-statistics shapes are components too.
    expect(schemas.CountEnvelope?.properties.histogram).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/HistogramBucket' },
    });
    expect(schemas.CountEnvelope?.properties.rate_stats).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/RateStatistics' },
    });
    // The record's own fields are described once each: in Opportunity and in PreviewOpportunity.
    expect(JSON.stringify(doc).match(/"technology_classification":\{/g)?.length).toBe(2);
  });

  it('documents exactly the /v1 routes served; other routes are operational', async () => {
    const documented = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    const served = servedRoutes();
    expect(served.filter((r) => r.includes(' /v1/')).sort()).toEqual([...documented].sort());
    const OPERATIONAL = [
      '/healthz',
      '/readyz',
      '/mcp',
      '/metrics',
      '/docs',
      '/docs/init.js',
      '/docs/assets/{file}',
      '/llms.txt',
    ];
    for (const route of served.filter((r) => !r.includes(' /v1/'))) {
      expect(OPERATIONAL).toContain(route.split(' ')[1]);
    }
  });

  it('every documented operation answers with one of its documented statuses', async () => {
    for (const { path, method, op: operation } of operations()) {
      expect(method).toBe('get');
      const url = path.replace('{opportunity_id}', randomUUID());
      const secured = (operation.security ?? doc.security ?? []).length > 0;
      const res = await get(ctx.baseUrl, url, secured ? { key: reader.key } : {});
      expect({
        path,
        routeMissing: res.status === 404 && res.body?.error?.code === 'not_found',
      }).toEqual({
        path,
        routeMissing: false,
      });
      expect(Object.keys(operation.responses)).toContain(String(res.status));
    }
  });

  // An error response names the codes that operation can give, not every code of its status.
  it('lists on each error response only the codes its operation can give', () => {
    const described = (path: string, status: string) =>
      (
        operations().find((o) => o.path === path)?.op.responses[status] as
          { description?: string } | undefined
      )?.description ?? '';
    expect(described('/v1/preview/opportunities', '400')).toBe(
      'invalid_filter or page_size_exceeded',
    );
    expect(described('/v1/preview/opportunities', '503')).toBe(
      'search_unavailable (with Retry-After)',
    );
    // The detail has no cursor or page size, and usage never reads the engine: they listed
    // malformed_cursor and page_size_exceeded, and search_unavailable.
    expect(described('/v1/usage', '503')).toBe('metering_unavailable (with Retry-After)');
    for (const path of [
      '/v1/opportunities/count',
      '/v1/usage',
      '/v1/taxonomy/occupations',
      '/v1/opportunities/{opportunity_id}',
    ]) {
      expect({ path, described: described(path, '400') }).toEqual({
        path,
        described: 'invalid_filter',
      });
    }
    expect(described('/v1/opportunities', '400')).toBe(
      'invalid_filter, malformed_cursor or page_size_exceeded',
    );
  });

  it('has the parameters of contract §6, §7, §9.2, §10 and §11, no more, no less', () => {
    const PREVIEW = [
      'published_after', 'job_family', 'job_subfamily', 'job_class', 'level', 'engagement_model',
      'commercial_eligibility', 'remote', 'region', 'rate_min', 'pay_basis', 'work_structure',
      'liveness_status', 'q', 'sort', 'cursor', 'limit',
    ]; // prettier-ignore
    expect(queryNames('/v1/opportunities')).toEqual(
      [
        ...CONTRACT_FILTERS,
        'q',
        'sort',
        'cursor',
        'limit',
        'unseen_only',
        'max_new',
        'fields',
      ].sort(),
    );
    expect(queryNames('/v1/opportunities/count')).toEqual(
      [
        ...CONTRACT_FILTERS,
        'q',
        'group_by',
        'group_limit',
        'include',
        'histogram',
        'interval',
        'stats',
      ].sort(),
    );
    expect(queryNames('/v1/preview/opportunities')).toEqual([...PREVIEW].sort());
    const detail = op('/v1/opportunities/{opportunity_id}').parameters ?? [];
    expect(detail.find((p) => p.in === 'path')?.name).toBe('opportunity_id');
    expect(detail.some((p) => p.in === 'header' && p.name === 'X-Request-ID')).toBe(true);
    // contract §7.6: fields on the detail and the change feed as on list.
    expect(detail.some((p) => p.in === 'query' && p.name === 'fields')).toBe(true);
    expect(queryNames('/v1/opportunities/changes')).toContain('fields');
  });

  // A typed surface a generator or a validating gateway can take at its word.
  it('types the query parameters: integers, comma lists of enums, enums, patterns', () => {
    const param = (path: string, name: string) =>
      op(path).parameters?.find((p) => p.in === 'query' && p.name === name);
    expect(param('/v1/opportunities', 'limit')?.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
    expect(param('/v1/opportunities', 'max_new')?.schema).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 100,
    });
    expect(param('/v1/opportunities/count', 'group_limit')?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
    expect(param('/v1/opportunities/changes', 'limit')?.schema).toMatchObject({ type: 'integer' });
    expect(param('/v1/preview/opportunities', 'limit')?.schema).toMatchObject({ maximum: 5 });
    expect(param('/v1/opportunities', 'level')).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array', minItems: 1, items: { type: 'string', enum: expect.any(Array) } },
    });
    expect(param('/v1/opportunities', 'engagement_model')?.schema).toMatchObject({
      enum: expect.arrayContaining(['w2_contract', '1099', 'c2c']),
    });
    expect(param('/v1/opportunities', 'remote')?.schema).toEqual({ type: 'boolean' });
    expect(param('/v1/opportunities', 'city')?.schema).toMatchObject({ minLength: 1 });
    expect(param('/v1/opportunities', 'published_after')?.schema).toMatchObject({
      type: 'string',
      pattern: expect.any(String),
    });
    expect(JSON.stringify(param('/v1/opportunities', 'job_family'))).toMatch(
      /GET \/v1\/taxonomy\/occupations.*taxonomy:\/\/occupations/,
    );
    // No enum is disguised as a pattern any more (the old `^(intern|junior|...)(,(...))*$`).
    const patterns = JSON.stringify(doc.paths).match(/"pattern":"\^\([a-z_0-9]+\|/g);
    expect(patterns).toBeNull();
  });

  it('tags every operation with one of the five declared tags', () => {
    expect(doc.tags.map((t) => t.name)).toEqual([
      'Opportunities', 'Taxonomy', 'Account', 'Preview', 'Discovery',
    ]); // prettier-ignore
    for (const { op: operation } of operations()) {
      expect({ id: operation.operationId, tags: operation.tags?.length }).toEqual({
        id: operation.operationId,
        tags: 1,
      });
      expect(doc.tags.map((t) => t.name)).toContain(operation.tags?.[0]);
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['ApiKeyHeader']);
  });

  it('documents the q syntax with examples, and the sort orders (contract §7.3, §7.5)', () => {
    const param = (path: string, name: string) =>
      (op(path).parameters ?? []).find((p) => p.in === 'query' && p.name === name) as
        { description?: string; schema?: Record<string, unknown> } | undefined;
    for (const path of [
      '/v1/opportunities',
      '/v1/opportunities/count',
      '/v1/preview/opportunities',
    ]) {
      const q = param(path, 'q');
      expect(q?.description).toMatch(/ANDed/);
      expect(q?.description).toMatch(/OR/);
      expect(JSON.stringify(q)).toMatch(/senior golang k8s -intern/);
      expect(q?.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    }
    expect(JSON.stringify(param('/v1/opportunities', 'sort'))).toMatch(/relevance/);
  });

  it('declares the key only where one is needed', () => {
    const secured = (path: string) => (op(path).security ?? doc.security ?? []).length > 0;
    expect(secured('/v1/opportunities')).toBe(true);
    expect(secured('/v1/opportunities/count')).toBe(true);
    expect(secured('/v1/opportunities/{opportunity_id}')).toBe(true);
    expect(secured('/v1/preview/opportunities')).toBe(false);
    expect(secured('/v1/taxonomy/occupations')).toBe(false);
  });

  // contract §4.7: the reasons are a closed list, typed so in the document a client generates from.
  it('types details.reason as the closed list of contract §4.7', () => {
    const envelope = JSON.stringify(doc.components.schemas.ErrorEnvelope);
    const reason = /"reason":\{"type":"string","enum":(\[[^\]]*\])/.exec(envelope)?.[1];
    expect(JSON.parse(reason ?? '[]').sort()).toEqual(
      [
        'unknown_parameter',
        'repeated',
        'not_a_list',
        'unknown_value',
        'unsupported',
        'out_of_range',
        'bad_format',
        'missing',
      ].sort(),
    );
  });

  // The taxonomy's 304 carries what its 200 does, no usage or rate-limit header: it takes no key
  // and no limit. Its If-None-Match once said otherwise, in the words written for list and count.
  it("describes the taxonomy's If-None-Match as the taxonomy answers it", () => {
    const param = (path: string, name: string) =>
      (op(path).parameters ?? []).find((p) => p.in === 'header' && p.name === name);
    expect(param('/v1/taxonomy/occupations', 'If-None-Match')).toBeDefined();
    const taxonomy = JSON.stringify(param('/v1/taxonomy/occupations', 'If-None-Match'));
    expect(taxonomy).toMatch(/no key/);
    expect(taxonomy).not.toMatch(/usage|rate-limit|rate limit/);
    expect(JSON.stringify(param('/v1/opportunities', 'If-None-Match'))).toMatch(
      /rate-limit headers/,
    );
  });

  it('documents the usage headers of contract §18 on authenticated responses', () => {
    const headers = Object.keys(op('/v1/opportunities').responses['200']?.headers ?? {});
    for (const name of [
      'X-Request-ID', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset',
      'X-Service-Balance-Millicents', 'X-Service-Usage-Charge-Millicents',
      'X-Service-Prepaid-Opportunity-Credits', 'X-Service-Plan', 'X-Service-Opportunity-Limit',
      'X-Service-Opportunity-Used', 'X-Service-Opportunity-Remaining',
      'X-Service-New-Opportunity-Count', 'X-Service-Included-New-Opportunity-Count',
      'X-Service-PAYG-New-Opportunity-Count', 'X-Service-Period-End', 'X-Marketplace-Billing',
    ]) expect(headers).toContain(name); // prettier-ignore
  });

  // contract §18.2: a 401 names no account and carries none of its usage headers; the document
  // listed every usage header on each 401. A real 401 carries what its entry documents: the rate
  // limit headers are the address's window of failed authentications (§19.5).
  it('documents on a 401 only what a 401 carries', async () => {
    const keyed = operations().filter(({ op: o }) => '401' in (o as Operation).responses);
    expect(keyed.length).toBeGreaterThan(3);
    for (const { path, op: operation } of keyed) {
      const documented = Object.keys((operation as Operation).responses['401']?.headers ?? {});
      expect({ path, documented }).toEqual({
        path,
        documented: [
          'X-Request-ID',
          'WWW-Authenticate',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
        ],
      });
    }
    const refused = await fetch(`${ctx.baseUrl}/v1/opportunities`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    expect(refused.headers.get('www-authenticate')).toBe(
      'APIKey realm="opportunities", header="X-API-Key"',
    );
    expect([...refused.headers.keys()].filter((h) => /^x-(ratelimit|service)-/.test(h))).toEqual([
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
    ]);
  });

  // contract §17.1: every route validates and echoes X-Request-ID, a free or anonymous one too.
  it('declares X-Request-ID on every operation, and echoes it on every response', () => {
    for (const { path, op: operation } of operations()) {
      const params = (operation as Operation).parameters ?? [];
      expect({ path, declared: params.some((p) => p.name === 'X-Request-ID') }).toEqual({
        path,
        declared: true,
      });
      for (const [status, response] of Object.entries((operation as Operation).responses)) {
        expect({ path, status, echoed: 'X-Request-ID' in (response.headers ?? {}) }).toEqual({
          path,
          status,
          echoed: true,
        });
      }
      // A malformed one is a 422, documented wherever the header is.
      expect({ path, statuses: Object.keys((operation as Operation).responses) }).toEqual({
        path,
        statuses: expect.arrayContaining(['422']),
      });
    }
  });

  // Contract §19.2: 429 carries Retry-After; §20.5: so does 503 search_unavailable.
  it.each([
    ['/v1/opportunities', '429'],
    ['/v1/opportunities', '503'],
    ['/v1/opportunities/count', '429'],
    ['/v1/opportunities/count', '503'],
    ['/v1/opportunities/{opportunity_id}', '429'],
    ['/v1/opportunities/{opportunity_id}', '503'],
    ['/v1/preview/opportunities', '429'],
    ['/v1/preview/opportunities', '503'],
  ])('%s %s documents the Retry-After header', (path, status) => {
    expect(Object.keys(op(path).responses[status]?.headers ?? {})).toContain('Retry-After');
  });
});

describe('real responses validate against the documented schemas (ajv, draft 2020-12)', () => {
  const validator = () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(structuredClone(doc) as object, 'openapi.json');
    return (name: string, body: unknown) => {
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
      if (!validate) throw new Error(`no schema ${name}`);
      const ok = validate(body);
      expect({ name, errors: ok ? null : validate.errors }).toEqual({ name, errors: null });
    };
  };

  it.each([
    [
      'ListEnvelope',
      '/v1/opportunities?limit=5&level=senior,staff,mid,junior,principal,lead,unknown',
      true,
    ],
    ['CountEnvelope', '/v1/opportunities/count?country=US', true],
    [
      'CountEnvelope',
      '/v1/opportunities/count?histogram=published&interval=week&stats=rate&group_by=currency',
      true,
    ],
    ['PreviewListEnvelope', '/v1/preview/opportunities?limit=3', false],
    ['Taxonomy', '/v1/taxonomy/occupations', false],
    ['ErrorEnvelope', '/v1/opportunities?level=ceo', true],
    ['ErrorEnvelope', '/v1/preview/opportunities?limit=6', false],
    ['ErrorEnvelope', `/v1/opportunities/${randomUUID()}`, true],
  ])('%s: GET %s', async (schema, path, keyed) => {
    const res = await get(ctx.baseUrl, path, keyed ? { key: reader.key } : {});
    validator()(schema, res.body);
  });

  it('DetailEnvelope: every fixture record as served', async () => {
    const check = validator();
    for (const r of FIXTURE.slice(0, 8)) {
      const res = await get(ctx.baseUrl, `/v1/opportunities/${r.id}`, { key: reader.key });
      expect(res.status).toBe(200);
      check('DetailEnvelope', res.body);
    }
  });
});
