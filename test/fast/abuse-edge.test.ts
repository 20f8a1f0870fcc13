import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createHttpServer, MAX_PIPELINED } from '../../src/app/http-server';
import { parseEnv } from '../../src/config';
import { createApp } from '../../src/app/create-app';
import { compose } from '../../src/app/compose';
import type { HealthProbes } from '../../src/service/health';
import { FIXTURE } from '../support/read-fixture';
import { rawRequest } from '../support/raw-http';
import { expectError, get, outsideUuids, type Json } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';
import { initializeMessage } from '../support/mcp-messages';

// contract §5.10 at the HTTP edge, over the in-memory capabilities: nosniff everywhere, no path
// echo, key-shaped request ids, the method matrix, readiness probes at most once a second,
// PUBLIC_BASE_URL and the Origin check, server deadlines, preview redaction.

let app: FastApp;
let key: string;
beforeAll(async () => {
  app = await startFastApp(FIXTURE, { MCP_ALLOWED_ORIGINS: 'https://agent.example' });
  key = app.reader().key;
});
afterAll(() => app.close());

/** A GET through node:http, which (unlike fetch) lets a test set the Host header. */
function getWithHost(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const mcpInit = initializeMessage('abuse-edge');
const mcpHeaders = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

describe('every response carries X-Content-Type-Options: nosniff', () => {
  it.each([
    ['/healthz', {}],
    ['/readyz', {}],
    ['/v1/taxonomy/occupations', {}],
    ['/v1/openapi.json', {}],
    ['/llms.txt', {}],
    ['/docs', {}],
    ['/docs/init.js', {}],
    ['/docs/assets/swagger-ui.css', {}],
    ['/v1/preview/opportunities', {}],
    ['/v1/no-such-route', {}],
    ['/v1/opportunities', {}],
    ['/v1/opportunities?limit=1', { key: true }],
    ['/v1/opportunities/count?level=nope', { key: true }],
    ['/mcp', {}],
  ])('GET %s', async (path, options: { key?: boolean }) => {
    const res = await fetch(app.baseUrl + path, {
      headers: options.key ? { 'X-API-Key': key } : {},
    });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('POST /mcp (served, refused for its Origin, refused for its key)', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${app.baseUrl}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, ...headers },
        body: JSON.stringify(mcpInit),
      });
    const served = await post({ 'X-API-Key': key });
    expect(served.status).toBe(200);
    const refused = await post({ Origin: 'http://evil.example' });
    expect(refused.status).toBe(403);
    const unknown = await post({});
    expect(unknown.status).toBe(401);
    for (const res of [served, refused, unknown]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it("on the HTTP server's own refusals (headers over the limit)", async () => {
    const reply = await rawRequest(
      app.baseUrl,
      `GET /healthz HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`,
    );
    expect(reply.status).toBe(431);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });
});

it('a 404 does not echo the path', async () => {
  const path = '/v1/leak-oppk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/<script>';
  const res = await get(app.baseUrl, path);
  expectError(res, 404, 'not_found');
  expect(res.text).not.toContain('leak');
  expect(res.text).not.toContain('script');
});

// A load balancer's own trace id in X-Request-ID (`Root=1-...`, which holds `=`) failed its health
// checks with 422, and made an unknown path 422 instead of 404.
describe('a malformed X-Request-ID on the paths that spend no id and need none', () => {
  const trace = 'Root=1-67891233-abcdef012345678912345678';
  it.each([
    ['/healthz', 200],
    ['/readyz', 200],
    ['/nope', 404],
    // A file /docs/assets does not serve is an unknown path too (it was 422).
    ['/docs/assets/nope.js', 404],
  ])('%s answers as without it, under a fresh id', async (path, status) => {
    const res = await get(app.baseUrl, path, { headers: { 'X-Request-ID': trace } });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).not.toBe(trace);
  });

  // Node joins a header sent twice with ", ": it was refused as badly formed.
  it('sent twice, it is refused as repeated', async () => {
    const reply = await rawRequest(
      app.baseUrl,
      `GET /v1/opportunities/count HTTP/1.1\r\nX-API-Key: ${key}\r\nX-Request-ID: a1\r\nX-Request-ID: a2`,
    );
    expect(reply.status).toBe(422);
    expect(JSON.parse(reply.body).error.details).toEqual({
      parameter: 'X-Request-ID',
      reason: 'repeated',
    });
  });

  it('is still refused on the other served paths, and a key in it everywhere', async () => {
    const taxonomy = await get(app.baseUrl, '/v1/taxonomy/occupations', {
      headers: { 'X-Request-ID': trace },
    });
    expectError(taxonomy, 422, 'validation_error', { parameter: 'X-Request-ID' });
    const health = await get(app.baseUrl, '/healthz', { headers: { 'X-Request-ID': key } });
    expectError(health, 422, 'validation_error', { parameter: 'X-Request-ID' });
  });
});

// RFC 3986 §6.2.2.2: `%63ount` is `count`. It was taken for an opportunity id (422, and HEAD 405).
describe('percent-encoded unreserved characters in the path are the characters', () => {
  it.each(['/v1/opportunities/%63ount', '/v1/%6Fpportunities/count', '/v1/opportunities/c%6Funt'])(
    '%s is the count',
    async (path) => {
      const res = await get(app.baseUrl, path, { key });
      expect(res.status).toBe(200);
      expect(typeof res.body.count).toBe('number');
    },
  );

  it('a reserved one keeps its meaning: %2F is not a slash', async () => {
    const res = await get(app.baseUrl, '/v1/opportunities/count%2F', { key });
    expectError(res, 422, 'validation_error', { parameter: 'opportunity_id' });
  });
});

describe('an X-Request-ID shaped like an API key → 422, never used', () => {
  it.each([
    ['a real key', () => key],
    ['oppk_ and base62', () => 'oppk_abc123'],
    ['a key inside an id', () => `retry-${key}`],
    // What the log would redact: it was answered as sent and logged as `trace-oppk_[redacted]`.
    ['part of a key inside an id', () => 'trace-oppk_abc123'],
    ['oppk_ and base62 in another case', () => 'myOPPK_x.y'],
  ])('%s', async (_name, id) => {
    const before = (await get(app.baseUrl, '/v1/usage', { key })).body;
    const res = await get(app.baseUrl, '/v1/opportunities?limit=3', {
      key,
      headers: { 'X-Request-ID': id() },
    });
    expectError(res, 422, 'validation_error', { parameter: 'X-Request-ID' });
    expect(res.headers.get('x-request-id')).not.toContain('oppk_');
    expect(res.text).not.toContain(id());
    const after = (await get(app.baseUrl, '/v1/usage', { key })).body;
    expect(after.allowance).toEqual(before.allowance);
  });

  it('on /mcp too', async () => {
    const res = await fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, 'X-API-Key': key, 'X-Request-ID': key },
      body: JSON.stringify(mcpInit),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { details: { parameter: string } } };
    expect(body.error.details.parameter).toBe('X-Request-ID');
  });

  it('an ordinary id that merely contains oppk is fine', async () => {
    const res = await get(app.baseUrl, '/v1/opportunities/count', {
      key,
      headers: { 'X-Request-ID': 'oppk-check-1' },
    });
    expect(res.status).toBe(200);
  });
});

describe('methods (contract §5.11)', () => {
  const id = FIXTURE[0]?.id ?? '';
  const METERED = ['/v1/opportunities', `/v1/opportunities/${id}`, '/v1/opportunities/changes'];
  const FREE = [
    '/v1/opportunities/count',
    '/v1/usage',
    '/v1/taxonomy/occupations',
    '/v1/openapi.json',
    '/v1/preview/opportunities',
    '/llms.txt',
    '/docs',
    '/docs/init.js',
    '/docs/assets/swagger-ui.css',
    '/healthz',
    '/readyz',
    '/metrics',
  ];
  const OTHERS = ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'OPTIONS'];

  async function raw(method: string, path: string, headers: Record<string, string> = {}) {
    const head = [
      `${method} ${path} HTTP/1.1`,
      ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`),
    ];
    return rawRequest(app.baseUrl, head.join('\r\n'));
  }

  it.each(METERED)('HEAD %s → 405 Allow: GET, nothing metered or spent', async (path) => {
    const before = (await get(app.baseUrl, '/v1/usage', { key })).body;
    const requestId = `head-${Math.random().toString(36).slice(2)}`;
    const res = await fetch(app.baseUrl + path, {
      method: 'HEAD',
      headers: { 'X-API-Key': key, 'X-Request-ID': requestId },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    const after = (await get(app.baseUrl, '/v1/usage', { key })).body;
    expect(after.allowance).toEqual(before.allowance);
    // The id was not spent: a GET may still use it.
    const served = await get(app.baseUrl, path, { key, headers: { 'X-Request-ID': requestId } });
    expect(served.status).toBe(200);
  });

  it('HEAD on a metered path is refused before the key is looked at', async () => {
    const res = await fetch(`${app.baseUrl}/v1/opportunities`, { method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it.each(FREE)('HEAD %s is the GET without a body', async (path) => {
    const headers = { 'X-API-Key': key };
    const got = await fetch(app.baseUrl + path, { headers });
    const head = await raw('HEAD', path, headers);
    expect(head.status).toBe(got.status);
    expect(got.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(got.headers.get('content-type'));
  });

  it.each([...METERED, ...FREE].flatMap((path) => OTHERS.map((m) => [m, path])))(
    '%s %s → 405 with Allow and the envelope',
    async (method, path) => {
      const res = await raw(method, path, { 'X-API-Key': key });
      expect(res.status).toBe(405);
      const allow = METERED.includes(path) ? 'GET' : 'GET, HEAD';
      expect(res.headers.allow).toBe(allow);
      const body = JSON.parse(res.body) as { error: { code: string; request_id: string } };
      expect(body.error.code).toBe('method_not_allowed');
      expect(body.error.request_id).toBe(res.headers['x-request-id']);
    },
  );

  it('/mcp keeps its own answer: POST only', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await raw(method, '/mcp', { 'X-API-Key': key });
      expect({ method, status: res.status, allow: res.headers.allow }).toEqual({
        method,
        status: 405,
        allow: 'POST',
      });
    }
  });

  it('an unknown path stays 404 whatever the method', async () => {
    expect((await raw('POST', '/v1/nothing-here')).status).toBe(404);
    expect((await raw('DELETE', '/nope')).status).toBe(404);
  });
});

describe('/readyz probes at most once a second; /healthz probes nothing', () => {
  it('whatever the rate of calls', async () => {
    const calls = { postgres: 0, opensearch: 0 };
    const probes: HealthProbes = {
      postgres: async () => (calls.postgres++, true),
      opensearch: async () => (calls.opensearch++, true),
    };
    const counted = await startFastApp(FIXTURE, {}, { health: probes });
    try {
      const started = Date.now();
      for (let round = 0; round < 20; round++) {
        const replies = await Promise.all(
          Array.from({ length: 10 }, () => fetch(`${counted.baseUrl}/readyz`)),
        );
        for (const r of replies) expect(r.status).toBe(200);
      }
      const seconds = Math.ceil((Date.now() - started) / 1000);
      // 200 calls: one probe, and one more per second elapsed at most.
      expect(calls.postgres).toBeLessThanOrEqual(1 + seconds);
      expect(calls.opensearch).toBeLessThanOrEqual(1 + seconds);
      const probed = { ...calls };
      for (let i = 0; i < 50; i++)
        expect((await fetch(`${counted.baseUrl}/healthz`)).status).toBe(200);
      expect(calls).toEqual(probed);
    } finally {
      await counted.close();
    }
  });
});

describe('PUBLIC_BASE_URL and the /mcp Origin check', () => {
  const mcpStatus = (base: string, headers: Record<string, string>) =>
    getWithHost(base, '/mcp', { ...mcpHeaders, ...headers }, 'POST').then((r) => r.status);

  it('set: /llms.txt, the OpenAPI servers and the own origin come from it, never from Host', async () => {
    const pub = await startFastApp(FIXTURE, { PUBLIC_BASE_URL: 'https://api.example.com/' });
    try {
      const llms = await getWithHost(pub.baseUrl, '/llms.txt', { Host: 'evil.example' });
      expect(llms.text).toContain('https://api.example.com/v1/opportunities');
      expect(llms.text).not.toContain('evil.example');
      const openapi = await get(pub.baseUrl, '/v1/openapi.json');
      expect(openapi.body.servers).toEqual([{ url: 'https://api.example.com' }]);
      // 401: past the Origin check, refused for the missing key.
      expect(await mcpStatus(pub.baseUrl, { Origin: 'https://api.example.com' })).toBe(401);
      // The same origin with its scheme's default port written out.
      expect(await mcpStatus(pub.baseUrl, { Origin: 'https://api.example.com:443' })).toBe(401);
      expect(await mcpStatus(pub.baseUrl, { Origin: 'https://api.example.com:8443' })).toBe(403);
      expect(await mcpStatus(pub.baseUrl, { Origin: 'http://api.example.com:443' })).toBe(403);
      expect(
        await mcpStatus(pub.baseUrl, { Host: 'evil.example', Origin: 'http://evil.example' }),
      ).toBe(403);
    } finally {
      await pub.close();
    }
  });

  it('unset in production: root-relative /llms.txt; a rebinding Host does not make its Origin ours', async () => {
    const prod = await startFastApp(FIXTURE, {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none',
      OPENSEARCH_URL: 'http://127.0.0.1:1',
    });
    try {
      const llms = await getWithHost(prod.baseUrl, '/llms.txt', { Host: 'evil.example' });
      expect(llms.text).toContain('REST under /v1');
      expect(llms.text).not.toMatch(/https?:\/\//);
      expect(
        await mcpStatus(prod.baseUrl, { Host: 'evil.example', Origin: 'http://evil.example' }),
      ).toBe(403);
      const host = new URL(prod.baseUrl).host;
      expect(await mcpStatus(prod.baseUrl, { Origin: `http://${host}` })).toBe(403);
      expect(await mcpStatus(prod.baseUrl, {})).toBe(401);
    } finally {
      await prod.close();
    }
  });

  it('unset in local mode: the Host the client used is our own origin', async () => {
    const host = new URL(app.baseUrl).host;
    expect(await mcpStatus(app.baseUrl, { Origin: `http://${host}` })).toBe(401);
    expect(await mcpStatus(app.baseUrl, { Origin: 'https://agent.example/' })).toBe(401);
    expect(await mcpStatus(app.baseUrl, { Origin: 'https://agent.example:443' })).toBe(401);
  });

  it('an Origin over 2,048 characters → 403 with the envelope, even an allowed one', async () => {
    for (const origin of [
      `https://agent.example${'/'.repeat(3000)}`,
      `http://a${'/'.repeat(15_000)}x`,
    ]) {
      const res = await fetch(`${app.baseUrl}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, Origin: origin, 'X-API-Key': key },
        body: JSON.stringify(mcpInit),
      });
      const body = { status: res.status, json: (await res.json()) as Json['body'] };
      expect(body.status).toBe(403);
      expect(body.json.error.code).toBe('origin_not_allowed');
    }
  });
});

describe('HTTP server deadlines (contract §19.10)', () => {
  it('defaults: headers 10 s, the whole request 30 s', () => {
    const server = createHttpServer(createApp(compose(app.deps, app.world.backends)), parseEnv({}));
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
  });

  /** Trickles `chunks` one every `everyMs`; resolves with how many went out before the close. */
  function trickle(base: string, head: string, chunks: string[], everyMs: number) {
    const { hostname, port } = new URL(base);
    return new Promise<{ sent: number; reply: string }>((resolve) => {
      const socket: Socket = connect(Number(port), hostname);
      let sent = 0;
      let reply = '';
      socket.write(head);
      const timer = setInterval(() => {
        if (sent === chunks.length) {
          clearInterval(timer);
          socket.destroy();
          return;
        }
        socket.write(chunks[sent++] ?? '');
      }, everyMs);
      socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ sent, reply });
      });
    });
  }

  let slow: FastApp;
  let slowKey: string;
  beforeAll(async () => {
    slow = await startFastApp(FIXTURE, {
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '600',
    });
    slowKey = slow.reader().key;
  });
  afterAll(() => slow.close());

  it('headers trickled slower than the limit: disconnected', async () => {
    // 100 header lines, one every 50 ms: 5 s in all, far past the 300 ms limit.
    const lines = Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: x\r\n`);
    const { sent, reply } = await trickle(slow.baseUrl, 'GET /healthz HTTP/1.1\r\n', lines, 50);
    expect(sent).toBeLessThan(lines.length);
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a body trickled slower than the limit: disconnected', async () => {
    const body = JSON.stringify(mcpInit);
    const head =
      `POST /mcp HTTP/1.1\r\nHost: x\r\nX-API-Key: ${slowKey}\r\n` +
      `Content-Type: application/json\r\nAccept: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    const { sent } = await trickle(slow.baseUrl, head, [...body], 50);
    expect(sent).toBeLessThan(body.length);
  });

  it('a request within the limits is served', async () => {
    expect((await fetch(`${slow.baseUrl}/healthz`)).status).toBe(200);
  });
});

// contract §19.10: 1,000 requests for the OpenAPI document pipelined in one write, never read,
// held 160 MB until the client left: every answer was made and queued behind the first.
describe('requests pipelined on one connection', () => {
  /** Writes `requests` at once, reads nothing for a while, then everything until the close. */
  function pipelined(requests: string, pauseMs: number) {
    const { hostname, port } = new URL(app.baseUrl);
    return new Promise<number[]>((resolve) => {
      const socket: Socket = connect(Number(port), hostname);
      let reply = '';
      socket.pause();
      socket.write(requests);
      setTimeout(() => socket.resume(), pauseMs);
      socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
      socket.on('error', () => undefined);
      const statuses = () => [...reply.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      socket.on('close', () => resolve(statuses()));
      // A hang is a failure: the last request asks the server to close once it is answered.
      setTimeout(() => socket.destroy(), pauseMs + 10_000).unref();
    });
  }
  /** `n` requests for /healthz, the last one closing the connection once answered. */
  const healthz = (n: number) =>
    'GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(n - 1) +
    'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n';

  it(`past ${MAX_PIPELINED} waiting, the next is 429 and the connection closes`, async () => {
    const statuses = await pipelined(healthz(200), 300);
    expect(statuses).toEqual([...Array<number>(MAX_PIPELINED).fill(200), 429]);
  });

  it(`${MAX_PIPELINED} at once are all served`, async () => {
    const statuses = await pipelined(healthz(MAX_PIPELINED), 300);
    expect(statuses).toEqual(Array<number>(MAX_PIPELINED).fill(200));
  });
});

describe('preview redaction (contract §9.5)', () => {
  it('no canonical or application URL, sources reduced to their id, no source URL or id anywhere', async () => {
    const hidden = FIXTURE.flatMap((r) => [
      r.canonical_url,
      r.application_url,
      ...r.sources.flatMap((s) => [s.url, s.external_id]),
    ]).filter((v): v is string => typeof v === 'string');
    expect(hidden.length).toBeGreaterThan(10);
    let seen = 0;
    for (const query of ['', '?job_family=data', '?remote=true', '?level=senior']) {
      const page = await get(app.baseUrl, `/v1/preview/opportunities${query}`);
      expect(page.status).toBe(200);
      for (const record of page.body.data as Record<string, unknown>[]) {
        seen++;
        expect(record.canonical_url).toBeNull();
        expect(record.application_url).toBeNull();
        for (const source of record.sources as Record<string, unknown>[]) {
          expect(Object.keys(source)).toEqual(['source']);
        }
      }
      // Record and request ids are random uuids, which hold a hidden value such as the external
      // id '123' by chance (about one run in eight, by the odds): they are left out of the search.
      const text = outsideUuids(page.text);
      for (const value of hidden) expect(text).not.toContain(value);
    }
    expect(seen).toBeGreaterThan(5);
  });
});
