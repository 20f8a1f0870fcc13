import { createTestContext, type TestContext } from '../support/harness';
import { rawExchange, rawRequest } from '../support/raw-http';
import { expectError, get, newReader } from '../support/read-http';

// contract §20.4: bad percent-escapes (path or query), invalid UTF-8 and oversized requests are
// refused with a documented status and the error envelope, never a 500, with or without a key.

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext();
  key = (await newReader(ctx.deps)).key;
});
afterAll(() => ctx.close());

describe.each([
  ['without a key', false],
  ['with a key', true],
])('%s', (_label, withKey) => {
  const call = (path: string) => get(ctx.baseUrl, path, withKey ? { key } : {});

  it.each([
    '/v1/opportunities/%ZZ',
    '/v1/opportunities/%',
    '/v1/opportunities/%E0%A4%A',
    '/v1/opportunities/%C0%AF',
    '/v1/opportunities/abc%FF',
  ])(
    'GET %s → a detail request like any: 401 without a key, else 422 naming opportunity_id',
    async (path) => {
      const res = await call(path);
      if (!withKey) {
        expectError(res, 401, 'missing_api_key');
        return;
      }
      // The id was sent and is not a uuid (not "missing"), found after the key was accepted: the
      // usage and rate-limit headers come with it, as on /v1/opportunities/abc.
      expectError(res, 422, 'validation_error', {
        parameter: 'opportunity_id',
        reason: 'bad_format',
      });
      expect(res.body.error.message).toBe('opportunity_id must be a uuid.');
      expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
      expect(res.headers.get('x-service-opportunity-limit')).not.toBeNull();
    },
  );

  it.each(['/v1/%ZZ', '/%ZZ/x', '/v1/taxonomy/%ZZ'])('GET %s → 404 not_found', async (path) => {
    expectError(await call(path), 404, 'not_found');
  });

  it('a bad escape in a query value is served or refused, never a 500', async () => {
    const res = await call('/v1/opportunities?city=%ZZ%E0%A4%A');
    if (withKey) {
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    } else {
      expectError(res, 401, 'missing_api_key');
    }
  });

  it('a bad escape in a parameter name → 400 invalid_filter (or 401 without a key)', async () => {
    const res = await call('/v1/opportunities/count?%ZZ=1');
    if (withKey) expectError(res, 400, 'invalid_filter');
    else expectError(res, 401, 'missing_api_key');
  });

  it('invalid UTF-8 bytes in the path → 422, not a 500', async () => {
    const res = await rawRequest(
      ctx.baseUrl,
      Buffer.concat([
        Buffer.from('GET /v1/opportunities/'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from(` HTTP/1.1${withKey ? `\r\nX-API-Key: ${key}` : ''}`),
      ]),
    );
    expect([400, 422]).toContain(res.status);
    if (res.body) expect(JSON.parse(res.body)).toHaveProperty('error.code');
  });
});

describe('preview', () => {
  it('a bad escape in a query value is served', async () => {
    const res = await get(ctx.baseUrl, '/v1/preview/opportunities?region=%ZZ');
    expect(res.status).toBe(200);
  });
});

describe('oversized requests', () => {
  // contract §5.9, §5.10: refused before the app, still with the headers every response carries
  // (only nosniff was there).
  it.each([
    {
      label: 'headers past the server limit',
      head: `GET /v1/opportunities HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`,
      status: 431,
    },
    {
      label: 'a URL past the server limit',
      head: `GET /v1/opportunities?q=${'a'.repeat(70_000)} HTTP/1.1`,
      status: 431,
    },
    {
      label: 'a header line without a colon',
      head: 'GET /v1/opportunities HTTP/1.1\r\nno colon here',
      status: 400,
    },
  ])(
    '$label → $status before the app, with nosniff, a request id and no-store',
    async ({ head, status }) => {
      const res = await rawRequest(ctx.baseUrl, head);
      expect(res.status).toBe(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('an /mcp body past 1 MB → 413', async () => {
    const res = await fetch(`${ctx.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'X-API-Key': key,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { x: 'a'.repeat(1_100_000) },
      }),
    });
    expect(res.status).toBe(413);
  });
});

// contract §5.9, §5.10, §20.4 at the HTTP server: Node answered a missing Host with a 400 lacking
// the headers every response carries, served two Hosts or one no host is named by, and answered an
// unknown Expect with a bare 417.
describe('what the HTTP server itself refuses', () => {
  const expectServerHeaders = (headers: Record<string, string>) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers['cache-control']).toBe('no-store');
  };

  it.each([
    ['no Host', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['two Hosts', 'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'],
    [
      'a Host no host is named by',
      'GET /healthz HTTP/1.1\r\nHost: a b/c?d#e@f\r\nConnection: close\r\n\r\n',
    ],
  ])(
    'an HTTP/1.1 request with %s → 400, with nosniff, a request id and no-store',
    async (_label, request) => {
      const res = await rawExchange(ctx.baseUrl, request);
      expect(res.status).toBe(400);
      expectServerHeaders(res.headers);
    },
  );

  it('HTTP/1.0 without Host, and Hosts of every allowed form, are served', async () => {
    expect((await rawExchange(ctx.baseUrl, 'GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
    for (const host of ['api.example.com', 'api.example.com:8080', '127.0.0.1:1', '[::1]:80']) {
      const res = await rawExchange(
        ctx.baseUrl,
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
  });

  it('an Expect other than 100-continue is served as if it were not there (not a bare 417)', async () => {
    const res = await rawExchange(
      ctx.baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  // Handed to the app, a CONNECT pipelined behind a request whose answer still held the socket
  // crashed the process (ERR_HTTP_SOCKET_ASSIGNED, uncaught). Node's own handling closes it.
  it('CONNECT, alone or pipelined behind a request, is closed unanswered and the server serves on', async () => {
    const pipelined = await rawExchange(
      ctx.baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nCONNECT /healthz HTTP/1.1\r\nHost: a\r\n\r\n',
    );
    expect(pipelined.status).toBe(200);
    await rawExchange(ctx.baseUrl, 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n').catch(
      () => undefined,
    );
    expect((await fetch(`${ctx.baseUrl}/healthz`)).status).toBe(200);
  });

  // Node closed the connection the moment it read the CONNECT: a metered page pipelined before it,
  // still being served, was charged and its answer lost. The answers before it are written first.
  it('a metered page pipelined before a CONNECT is answered before the connection closes', async () => {
    const page = await rawExchange(
      ctx.baseUrl,
      `GET /v1/opportunities?limit=3 HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\n` +
        'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n',
    );
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body)).toHaveProperty('pagination');
  });
});
