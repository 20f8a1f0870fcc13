import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import { connect as connectSocket, type AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sdkClient } from '../support/sdk-client';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import type { AppDeps } from '../../src/service/context';
import type { AccountInput } from '../../src/store/account-repo';
import { accountWithKey } from '../support/auth-app';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { rawRequest } from '../support/raw-http';
import { createTestContext, type TestContext } from '../support/harness';
import { ROOMY } from '../support/factories';
import { protocolLimit } from '../../src/billing/rate-limit';
import { initializeMessage } from '../support/mcp-messages';

// contract §17, §18, §21 at the HTTP edge of /mcp: authentication before the protocol, 405s, the headers
// of contract §18 on the HTTP response, request ids, and the rate limit shared with REST.

let ctx: TestContext;
let server: Server;
let baseUrl: string;

async function startApp(deps: AppDeps): Promise<Server> {
  return new Promise((resolve) => {
    const s = createApp(compose(deps)).listen(0, '127.0.0.1', () => resolve(s));
  });
}

const records = Array.from({ length: 4 }, (_, i) =>
  makeRecord({ published_at: `2026-10-0${i + 1}T00:00:00.000Z` }),
);

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, records);
  server = await startApp(ctx.deps);
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

const FAST: AccountInput = { plan: 'growth', ...ROOMY };
const newKey = async (input: AccountInput = FAST) =>
  (await accountWithKey(ctx.deps, input)).key.key;

/** An SDK client whose HTTP exchanges are visible: the last response's headers, and per-POST headers. */
async function connect(
  headers: Record<string, string>,
  perRequest: () => Record<string, string> = () => ({}),
) {
  const seen: { headers: Headers | null } = { headers: null };
  const client = sdkClient('mcp-http-test');
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers },
    fetch: async (url, init) => {
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(perRequest())) merged.set(name, value);
      const res = await fetch(url, { ...init, headers: merged });
      if (init?.method === 'POST') seen.headers = res.headers;
      return res;
    },
  });
  await client.connect(transport);
  await client.listTools();
  return { client, seen };
}

const codeOf = (result: Record<string, unknown>) =>
  (result.structuredContent as { error?: { code: string } }).error?.code;

const JSON_RPC = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};
const post = (body: string, headers: Record<string, string>) =>
  fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { ...JSON_RPC, ...headers }, body });
/** A 2026-07-28 server/discover request, its revision and client in the body's _meta. */
const discoverMessage = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('authentication before the protocol', () => {
  it.each([
    ['missing_api_key', {}],
    ['invalid_api_key', { 'X-API-Key': `oppk_${'A'.repeat(40)}` }],
    ['invalid_api_key', { Authorization: 'Bearer not-a-key' }],
  ])('%s → HTTP 401 with the envelope and a challenge', async (code, headers) => {
    const res = await post(JSON.stringify(toolCall(1, 'count_opportunities', {})), {
      ...headers,
      'X-Request-ID': 'auth-1',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      error: { code, message: expect.any(String), request_id: 'auth-1' },
    });
  });

  // Two keys of ours that differ: neither is guessed at, whichever of the two is valid.
  it('X-API-Key and a Bearer key that differ → 401 invalid_api_key, in either order of validity', async () => {
    const good = await newKey();
    const unknown = `oppk_${'B'.repeat(40)}`;
    for (const [apiKey, bearer] of [
      [good, unknown],
      [unknown, good],
    ]) {
      const res = await post(JSON.stringify(toolCall(1, 'count_opportunities', {})), {
        'X-API-Key': apiKey as string,
        Authorization: `Bearer ${bearer}`,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
    // The same key twice, or a gateway's own token beside our key, is served.
    for (const bearer of [good, 'gateway-token-123']) {
      const res = await post(JSON.stringify(toolCall(1, 'count_opportunities', {})), {
        'X-API-Key': good,
        Authorization: `Bearer ${bearer}`,
      });
      expect(res.status).toBe(200);
    }
  });

  // Node keeps only the first Authorization header of a request; the second used to go unseen.
  it('two Authorization: Bearer headers of different keys → 401 invalid_api_key; the same key twice is served', async () => {
    const good = await newKey();
    const other = await newKey();
    const body = JSON.stringify(toolCall(1, 'count_opportunities', {}));
    const send = (first: string, second: string) =>
      rawRequest(
        baseUrl,
        [
          'POST /mcp HTTP/1.1',
          'Content-Type: application/json',
          'Accept: application/json, text/event-stream',
          `Authorization: Bearer ${first}`,
          `Authorization: Bearer ${second}`,
        ].join('\r\n'),
        body,
      );
    for (const [first, second] of [
      [good, other],
      [other, good],
      [good, `oppk_${'C'.repeat(40)}`],
    ] as const) {
      const res = await send(first, second);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
    expect((await send(good, good)).status).toBe(200);
  });

  // Node joins a repeated X-API-Key into `K, K`, which was looked up as one key: 401 on /mcp and on
  // REST for the same key twice, where two identical Bearer headers were served.
  it('two X-API-Key headers: the same key twice is served (REST and /mcp); two keys → 401 invalid_api_key', async () => {
    const good = await newKey();
    const other = await newKey();
    const send = (path: string, first: string, second: string) =>
      rawRequest(
        baseUrl,
        [
          `${path === '/mcp' ? 'POST' : 'GET'} ${path} HTTP/1.1`,
          'Content-Type: application/json',
          'Accept: application/json, text/event-stream',
          `X-API-Key: ${first}`,
          `X-API-Key: ${second}`,
        ].join('\r\n'),
        path === '/mcp' ? JSON.stringify(toolCall(1, 'count_opportunities', {})) : '',
      );
    for (const path of ['/mcp', '/v1/opportunities/count']) {
      expect((await send(path, good, good)).status).toBe(200);
      for (const [first, second] of [
        [good, other],
        [other, good],
      ]) {
        const res = await send(path, first, second);
        expect(res.status).toBe(401);
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
      }
    }
  });

  it("logs an authenticated call under its own path, /mcp (the router's mount used to strip it)", async () => {
    const key = await newKey();
    for (const id of ['mcp-path-log-1', 'mcp-path-log-2']) {
      const headers = { 'X-Request-ID': id, ...(id.endsWith('1') ? { 'X-API-Key': key } : {}) };
      await post(JSON.stringify(toolCall(1, 'count_opportunities', {})), headers);
      const line = ctx.logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'request' && l.request_id === id);
      expect(line?.path).toBe('/mcp');
    }
  });

  it('a disabled account → 403 with the envelope', async () => {
    const res = await post('{}', { 'X-API-Key': await newKey({ status: 'disabled' }) });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toMatchObject({ error: { code: 'api_access_disabled' } });
  });

  it('accepts Authorization: Bearer through the SDK client', async () => {
    const { client } = await connect({ Authorization: `Bearer ${await newKey()}` });
    const result = await client.callTool({ name: 'count_opportunities', arguments: {} });
    expect(result.structuredContent).toMatchObject({ count: 4 });
    await client.close();
  });
});

describe('protocol edges: HTTP refusals carry the error envelope (contract §20.4)', () => {
  /** The envelope of contract §4.7, its request id the X-Request-ID header, and nothing else. */
  async function expectEnvelope(res: Response, status: number, code: string, parameter?: string) {
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect({ status: res.status, body }).toEqual({
      status,
      body: {
        error: {
          code,
          message: expect.any(String),
          request_id: res.headers.get('x-request-id'),
          ...(parameter ? { details: { parameter, reason: expect.any(String) } } : {}),
        },
      },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  }
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

  it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('%s /mcp → 405 Allow: POST', async (method) => {
    const keys: Record<string, string>[] = [{}, { 'X-API-Key': await newKey() }];
    for (const headers of keys) {
      const res = await fetch(`${baseUrl}/mcp`, { method, headers });
      expect(res.headers.get('allow')).toBe('POST');
      await expectEnvelope(res, 405, 'method_not_allowed');
    }
  });

  it('a body that is not JSON → 422 validation_error naming the body', async () => {
    const res = await post('{"jsonrpc":', { 'X-API-Key': await newKey() });
    await expectEnvelope(res, 422, 'validation_error', 'body');
  });

  it.each([
    ['empty', ''],
    ['an empty object', '{}'],
    ['a JSON scalar', '42'],
    ['not JSON-RPC', '{"hello":"world"}'],
  ])('a body that is %s → 422 validation_error naming the body', async (_label, body) => {
    const res = await post(body, { 'X-API-Key': await newKey() });
    await expectEnvelope(res, 422, 'validation_error', 'body');
  });

  it.each([
    ['missing', undefined],
    ['without text/event-stream', 'application/json'],
    ['without application/json', 'text/event-stream'],
    ['text/html', 'text/html'],
  ])('Accept %s → 422 validation_error naming Accept (not the SDK 406)', async (_label, accept) => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-API-Key': await newKey(),
    };
    if (accept !== undefined) headers.Accept = accept;
    const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body: ping });
    await expectEnvelope(res, 422, 'validation_error', 'Accept');
  });

  // RFC 9110 §8.3.1: media types are case-insensitive. The check compared them as written, so an
  // Accept in capitals was refused on the 2025 wire (ours) and on the 2026-07-28 one (the SDK's).
  it.each([
    ['2025-11-25', { 'MCP-Protocol-Version': '2025-11-25' }, ping],
    [
      '2026-07-28',
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
      discoverMessage(),
    ],
  ])('an Accept in capitals is the same Accept (%s)', async (_revision, wire, body) => {
    const res = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'Application/JSON',
        Accept: 'Application/Json, Text/Event-Stream',
        'X-API-Key': await newKey(),
        ...wire,
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: expect.any(Object) });
  });

  it.each([
    ['missing', undefined],
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['text/plain with a JSON parameter', 'text/plain; a=application/json'],
  ])(
    'Content-Type %s → 422 validation_error naming Content-Type (not the SDK 415)',
    async (_label, type) => {
      const headers: Record<string, string> = {
        Accept: 'application/json, text/event-stream',
        'X-API-Key': await newKey(),
      };
      if (type !== undefined) headers['Content-Type'] = type;
      const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body: ping });
      await expectEnvelope(res, 422, 'validation_error', 'Content-Type');
    },
  );

  // contract §21.10: revisions since 2025-06-18 have no batches; one is refused whole, before any of
  // its messages runs.
  it.each([
    ['with a bad member', `[${ping},{"id":2}]`],
    [
      'a batch of more than 100',
      JSON.stringify(
        Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })),
      ),
    ],
    [
      'an initialize inside a batch',
      JSON.stringify([initializeMessage(), { jsonrpc: '2.0', id: 2, method: 'ping' }]),
    ],
    ['of one message', `[${ping}]`],
  ])('a JSON-RPC batch (%s) → 400 invalid_filter naming the body', async (_label, body) => {
    const res = await post(body, { 'X-API-Key': await newKey() });
    await expectEnvelope(res, 400, 'invalid_filter', 'body');
  });

  // contract §21.4.3 and the MCP transport specification: 400, whichever era the version looks like.
  it.each(['1999-01-01', '2099-01-01', 'latest'])(
    'an unsupported MCP-Protocol-Version (%s) → 400 invalid_filter naming it',
    async (version) => {
      const res = await post(ping, {
        'X-API-Key': await newKey(),
        'MCP-Protocol-Version': version,
      });
      await expectEnvelope(res, 400, 'invalid_filter', 'MCP-Protocol-Version');
    },
  );

  it('a 2026-07-28 envelope claiming a revision the server does not speak → 400', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2099-01-01',
          'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const res = await post(body, { 'X-API-Key': await newKey() });
    expect(res.status).toBe(400);
  });

  // 2026-07-28 requests the SDK's modern leg refuses: documented statuses with the envelope.
  describe('2026-07-28 requests', () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = (method: string, params: Record<string, unknown> = {}) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } });
    const V = { 'MCP-Protocol-Version': '2026-07-28' };

    // The standard headers of 2026-07-28 (Mcp-Method always, Mcp-Name on tools/call and
    // resources/read): the refusal names the header, as it names a query parameter.
    it.each([
      ['tools/list', {}, { 'Mcp-Method': 'tools/call' }, 'Mcp-Method', 'bad_format'],
      ['tools/list', {}, {}, 'Mcp-Method', 'missing'],
      [
        'tools/call',
        { name: 'get_usage', arguments: {} },
        { 'Mcp-Method': 'tools/call' },
        'Mcp-Name',
        'missing',
      ],
      [
        'tools/call',
        { name: 'get_usage', arguments: {} },
        { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_opportunity' },
        'Mcp-Name',
        'bad_format',
      ],
    ] as const)(
      '%s %j with headers %j → 400 invalid_filter naming %s, %s',
      async (method, params, headers, parameter, reason) => {
        const res = await post(modern(method, params), {
          'X-API-Key': await newKey(),
          ...V,
          ...headers,
        });
        const body = (await res.json()) as { error: { code: string; details: unknown } };
        expect([res.status, body.error.code, body.error.details]).toEqual([
          400,
          'invalid_filter',
          { parameter, reason },
        ]);
      },
    );

    // contract §6.14, §21.6.5: the refusal quotes what the client sent (here the body's tool
    // name), with a key hidden and a lone surrogate read as U+FFFD, as every other message does.
    it.each([
      [`oppk_${'W'.repeat(40)}`, 'oppk_[redacted]'],
      ['x\ud800', 'x\ufffd'],
    ])('a disagreement quoting %j shows %j', async (name, shown) => {
      const res = await post(modern('tools/call', { name, arguments: {} }), {
        'X-API-Key': await newKey(),
        ...V,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'x',
      });
      const text = await res.text();
      expect(res.status).toBe(400);
      const message = (JSON.parse(text) as { error: { message: string } }).error.message;
      expect(message).toContain(shown);
      expect(message).not.toContain(name);
      expect(text).not.toMatch(/\\ud800|oppk_W/);
    });

    it('the revision in the header without the envelope → 422 validation_error naming the body', async () => {
      const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
        'X-API-Key': await newKey(),
        ...V,
        'Mcp-Method': 'tools/list',
      });
      await expectEnvelope(res, 422, 'validation_error', 'body');
    });

    // The SDK's answer for that revision (404, JSON-RPC MethodNotFound), never a 500 or the
    // envelope: a client of that revision reads it as the answer to its request.
    it('initialize, which 2026-07-28 does not have → 404 MethodNotFound saying what to send', async () => {
      const res = await post(
        modern('initialize', {
          protocolVersion: '2026-07-28',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
        { 'X-API-Key': await newKey(), ...V, 'Mcp-Method': 'initialize' },
      );
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32601, message: expect.stringContaining('server/discover') as string },
      });
    });

    it('an unknown method → 404 MethodNotFound that does not talk of initialize', async () => {
      const res = await post(modern('no/such'), {
        'X-API-Key': await newKey(),
        ...V,
        'Mcp-Method': 'no/such',
      });
      expect(res.status).toBe(404);
      const reply = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(reply).toMatchObject({ id: 1, error: { code: -32601 } });
      expect(reply.error.message).not.toContain('initialize');
    });

    /** A server/discover whose envelope names `revision`, posted with `headers`. */
    const discoverUnder = async (revision: string, headers: Record<string, string> = {}) =>
      post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'server/discover',
          params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': revision } },
        }),
        { 'X-API-Key': await newKey(), ...headers, 'Mcp-Method': 'server/discover' },
      );

    // contract §21.4.4: how a client newer than the server opens.
    // Named by the header, or by the body's envelope alone (a client that sends no header).
    it.each([
      ['in the header and the envelope', '2099-01-01', { 'MCP-Protocol-Version': '2099-01-01' }],
      ['in the envelope only', '2099-01-01', {}],
      // Served through initialize for the 1.x SDK, not advertised (contract §21.4.1).
      ['an older one, in the envelope only', '2024-11-05', {}],
    ])(
      'a server/discover probe under a revision it does not speak (%s) → 400 UnsupportedProtocolVersion listing the spoken ones',
      async (_named, revision, header) => {
        const res = await discoverUnder(revision, header);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          jsonrpc: '2.0',
          id: 9,
          error: {
            code: -32022,
            message: expect.stringContaining(revision) as string,
            data: {
              supported: ['2026-07-28', '2025-11-25', '2025-06-18'],
              requested: revision,
            },
          },
        });
      },
    );

    // A 2025-era revision is spoken here but has no server/discover: not "unsupported".
    it.each(['2025-06-18', '2025-11-25'])(
      'a server/discover under %s → 400 saying which revision has it, not UnsupportedProtocolVersion',
      async (revision) => {
        const res = await discoverUnder(revision);
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('invalid_filter');
        expect(body.error.message).toContain('server/discover is a 2026-07-28 request');
        expect(body.error.message).not.toContain('Unsupported');
      },
    );

    it('server/discover lists the revisions and the same capabilities', async () => {
      const res = await post(modern('server/discover'), {
        'X-API-Key': await newKey(),
        ...V,
        'Mcp-Method': 'server/discover',
      });
      expect(res.status).toBe(200);
      const reply = (await res.json()) as {
        result: { supportedVersions: string[]; capabilities: Record<string, unknown> };
      };
      expect(reply.result.supportedVersions).toContain('2026-07-28');
      expect(Object.keys(reply.result.capabilities).sort()).toEqual(['resources', 'tools']);
    });
  });

  // contract §6.14, §21.2: never in the URL. Any query parameter is refused, a key pasted there
  // included, even beside a good key in the header.
  it.each(['api_key', 'key', 'foo'])('/mcp?%s=… → 400 invalid_filter naming it', async (name) => {
    const key = await newKey();
    const res = await fetch(`${baseUrl}/mcp?${name}=${key}`, {
      method: 'POST',
      headers: { ...JSON_RPC, 'X-API-Key': key },
      body: ping,
    });
    const text = await res.clone().text();
    await expectEnvelope(res, 400, 'invalid_filter', name);
    expect(text).not.toContain(key);
  });

  it('a body past 1 MB → 413 payload_too_large', async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { x: 'a'.repeat(1_100_000) },
      }),
      {
        'X-API-Key': await newKey(),
      },
    );
    await expectEnvelope(res, 413, 'payload_too_large');
  });

  // The size declared was enough to refuse it, but the body parser waits for the whole body before
  // it answers: a body declared past the limit and never sent got the server's bare 408 after 30 s.
  it('a body declared past 1 MB → 413 at once, without waiting for it', async () => {
    const key = await newKey();
    const { hostname, port } = new URL(baseUrl);
    const reply = await new Promise<string>((resolve) => {
      const socket = connectSocket(Number(port), hostname);
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
      // Far sooner than any request deadline: what came by then is the answer.
      setTimeout(() => socket.destroy(), 5_000).unref();
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n` +
          'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
          'Content-Length: 5000000\r\n\r\n{"jsonrpc":"2.0",',
      );
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toContain('"code":"payload_too_large"');
  });

  it('well-formed messages are still answered in JSON-RPC: an unknown method, a notification', async () => {
    const key = await newKey();
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such' }), {
      'X-API-Key': key,
    });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
    const note = await post(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      {
        'X-API-Key': key,
      },
    );
    expect(note.status).toBe(202);
  });
});

describe('malformed params of a well-formed message (fuzz counterexamples)', () => {
  // Each was answered -32603 Internal error with a dump of the SDK's zod issues as the message.
  it.each([
    ['resources/read with a uri that is not a string', 'resources/read', { uri: [] }],
    ['tools/call with a name that is not a string', 'tools/call', { name: 5 }],
    [
      'tools/call with arguments that are not an object',
      'tools/call',
      { name: 'count_opportunities', arguments: 'x' },
    ],
    ['tools/call without params', 'tools/call', undefined],
    ['tools/list with a cursor that is not a string', 'tools/list', { cursor: 5 }],
    ['initialize without its fields', 'initialize', {}],
  ])('%s → JSON-RPC -32602 invalid params, a short message', async (_label, method, params) => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 9, method, params }), {
      'X-API-Key': await newKey(),
    });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { id: number; error: { code: number; message: string } };
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32602 } });
    expect(reply.error.message).toMatch(/Invalid params for /);
    expect(reply.error.message).not.toMatch(/[\n{}[\]]/);
  });
});

// contract §4.7, §6.14: a params path can hold names the client chose; the message shows each as
// any caller's name is shown (it printed a key pasted as a capability's name whole, a lone
// surrogate raw, control characters, and 10 KB for two long names).
describe("a params path holding the client's own names", () => {
  const KEY = `oppk_${'N'.repeat(40)}`;
  it.each([
    [KEY, 'oppk_[redacted]'],
    ['x\ud800', 'x\ufffd'],
    ['a\u0000b\u007fc\u2028d\u0085e', 'a b c d e'],
    ['z'.repeat(5000), `${'z'.repeat(64)}…`],
  ])('initialize with a capability named as case %#', async (name, shown) => {
    const params = {
      protocolVersion: '2025-06-18',
      capabilities: { experimental: { [name]: 5 } },
      clientInfo: { name: 'a', version: '1' },
    };
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'initialize', params }),
      {
        'X-API-Key': await newKey(),
      },
    );
    const text = await res.text();
    const reply = JSON.parse(text) as { error: { code: number; message: string } };
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toContain(shown);
    expect(reply.error.message.length).toBeLessThan(700);
    expect(text).not.toMatch(/oppk_N|\\ud800/);
  });
});

it('an unknown tool named with line separators and controls is quoted on one line', async () => {
  const res = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'a\u0085b\u2028c\u2029d\u009be\u007ff', arguments: {} },
    }),
    { 'X-API-Key': await newKey() },
  );
  const reply = (await res.json()) as { error: { code: number; message: string } };
  expect(reply.error.code).toBe(-32602);
  expect(reply.error.message).toBe('Unknown tool: "a\\u0085b\\u2028c\\u2029d\\u009be\\u007ff"');
});

describe('batches are refused whole (contract §21.10)', () => {
  it('a batch of 100 taxonomy calls is one small 400, not 10 MB', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => toolCall(i, 'get_occupation_taxonomy', {}));
    const res = await post(JSON.stringify(batch), { 'X-API-Key': await newKey() });
    expect(res.status).toBe(400);
    expect((await res.text()).length).toBeLessThan(1000);
  });

  it('a batch of searches delivers and charges nothing', async () => {
    const key = await newKey();
    const batch = [toolCall(4, 'search_opportunities', { limit: 2 }), toolCall(5, 'get_usage', {})];
    const res = await post(JSON.stringify(batch), { 'X-API-Key': key });
    expect(res.status).toBe(400);
    const usage = await fetch(`${baseUrl}/v1/usage`, { headers: { 'X-API-Key': key } });
    expect(((await usage.json()) as { opportunities: { used: number } }).opportunities.used).toBe(
      0,
    );
  });
});

describe('headers and request ids', () => {
  it('puts the usage, rate and request id headers on the HTTP response', async () => {
    const { client, seen } = await connect({ 'X-API-Key': await newKey() });
    const result = await client.callTool({ name: 'search_opportunities', arguments: { limit: 2 } });
    expect(result.isError).toBeFalsy();
    const headers = seen.headers ?? new Headers();
    expect(headers.get('x-service-new-opportunity-count')).toBe('2');
    expect(headers.get('x-service-opportunity-used')).toBe('2');
    expect(headers.get('x-ratelimit-limit')).toBe('1000');
    expect(headers.get('cache-control')).toBe('no-store');
    const meta = (result.structuredContent as { meta: { request_id: string } }).meta;
    expect(headers.get('x-request-id')).toBe(meta.request_id);
    await client.close();
  });

  it('the handshake shows the window without counting; tools/list counts like any call', async () => {
    // Free: 2 requests a second. connect() sends initialize, initialized (neither counted) and
    // tools/list (counted, contract §21.10).
    const { client, seen } = await connect({ 'X-API-Key': await newKey({ plan: 'free' }) });
    const headers = seen.headers ?? new Headers();
    expect(headers.get('x-ratelimit-limit')).toBe('2');
    expect(headers.get('x-ratelimit-remaining')).toBe('1');
    expect(headers.get('x-service-opportunity-limit')).toBe('1000');
    expect(headers.get('x-service-opportunity-used')).toBe('0');
    const result = await client.callTool({ name: 'count_opportunities', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(seen.headers?.get('x-ratelimit-remaining')).toBe('0');
    await client.close();
  });

  it('a billable call spends a supplied X-Request-ID, shared with REST; counts do not', async () => {
    const key = await newKey();
    const { client } = await connect({ 'X-API-Key': key, 'X-Request-ID': 'mcp-dup-1' });
    const first = await client.callTool({ name: 'search_opportunities', arguments: {} });
    expect(first.isError).toBeFalsy();
    const count = await client.callTool({ name: 'count_opportunities', arguments: {} });
    expect(count.isError).toBeFalsy();
    const again = await client.callTool({
      name: 'get_opportunity',
      arguments: { id: records[0]?.id },
    });
    expect(again.isError).toBe(true);
    expect(codeOf(again)).toBe('duplicate_request_id');
    const rest = await fetch(`${baseUrl}/v1/opportunities`, {
      headers: { 'X-API-Key': key, 'X-Request-ID': 'mcp-dup-1' },
    });
    expect(rest.status).toBe(409);
    await client.close();
  });

  it('concurrent calls of two accounts each get their own scope: headers, ids, charges', async () => {
    // Each POST builds its own Server and transport over its own scope (server.ts, exchange.ts):
    // interleaved calls must never see another's account, request id or charge.
    const accounts = [
      { key: await newKey({ plan: 'growth', rps_override: 700 }), limit: '700' },
      { key: await newKey({ plan: 'growth', rps_override: 900 }), limit: '900' },
    ];
    type Reply = {
      id: number;
      result: {
        isError?: boolean;
        structuredContent: { data?: unknown[]; meta: { request_id: string } };
      };
    };
    const calls = Array.from({ length: 24 }, (_, i) => {
      const account = accounts[i % 2] as (typeof accounts)[number];
      const id = `scope-${i}-${account.limit}`;
      const [name, args] =
        i % 3 === 0
          ? ['count_opportunities', {}]
          : ['search_opportunities', { limit: 1 + (i % 4) }];
      return post(JSON.stringify(toolCall(i, name as string, args)), {
        'X-API-Key': account.key,
        'X-Request-ID': id,
      }).then(async (res) => ({ i, id, account, res, body: (await res.json()) as Reply }));
    });
    // A page of the same order is a prefix of a longer one: an account's deliveries are its
    // longest page, whatever the other account received.
    const longest = new Map<string, number>();
    for (const { i, id, account, res, body } of await Promise.all(calls)) {
      expect(res.status).toBe(200);
      expect(body.id).toBe(i);
      expect(body.result.isError ? body.result.structuredContent : 'served').toBe('served');
      expect(res.headers.get('x-request-id')).toBe(id);
      expect(body.result.structuredContent.meta.request_id).toBe(id);
      expect(res.headers.get('x-ratelimit-limit')).toBe(account.limit);
      const delivered = body.result.structuredContent.data?.length ?? 0;
      longest.set(account.key, Math.max(longest.get(account.key) ?? 0, delivered));
    }
    expect([...longest.values()]).toEqual([3, 4]);
    for (const account of accounts) {
      const usage = await fetch(`${baseUrl}/v1/usage`, { headers: { 'X-API-Key': account.key } });
      const used = ((await usage.json()) as { opportunities: { used: number } }).opportunities.used;
      expect(used).toBe(longest.get(account.key));
    }
  });

  it('a verified marketplace request carries X-Marketplace-Billing', async () => {
    let n = 0;
    const { client, seen } = await connect({ 'X-API-Key': await newKey() }, () => {
      const id = `mkt-${++n}`;
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', 'test-marketplace-secret').update(`${t}.${id}`).digest('hex');
      return { 'X-Request-ID': id, 'X-Marketplace-Proxy-Signature': `t=${t},v1=${v1}` };
    });
    await client.callTool({ name: 'search_opportunities', arguments: { limit: 3 } });
    expect(seen.headers?.get('x-marketplace-billing')).toBe('Opportunities=3');
    await client.close();
  });
});

describe('one rate limit across REST and MCP', () => {
  it('a burst over both surfaces hits rate_limit_exceeded (2 rps Free account)', async () => {
    const key = await newKey({ plan: 'free' });
    const { client, seen } = await connect({ 'X-API-Key': key });
    const rest = () =>
      fetch(`${baseUrl}/v1/opportunities/count`, { headers: { 'X-API-Key': key } });
    // connect()'s tools/list counted (contract §21.10); this REST count is the second request.
    expect((await rest()).status).toBe(200);
    const limited = await client.callTool({ name: 'count_opportunities', arguments: {} });
    expect(limited.isError).toBe(true);
    expect(codeOf(limited)).toBe('rate_limit_exceeded');
    expect(Number(seen.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(seen.headers?.get('x-ratelimit-remaining')).toBe('0');
    await client.close();
  });

  it('and the other way round: a tool call after tools/list, then REST gets 429', async () => {
    const key = await newKey({ plan: 'free' });
    const { client } = await connect({ 'X-API-Key': key });
    const ok = await client.callTool({ name: 'count_opportunities', arguments: {} });
    expect(ok.isError).toBeFalsy();
    const res = await fetch(`${baseUrl}/v1/opportunities/count`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    await client.close();
  });

  // contract §21.10: every MCP method counts against the request rate limit, refused before any work.
  it.each([
    ['tools/list', 'tools/list', {}],
    ['resources/list', 'resources/list', {}],
    ['resources/read', 'resources/read', { uri: 'taxonomy://occupations' }],
    ['get_occupation_taxonomy', 'tools/call', { name: 'get_occupation_taxonomy', arguments: {} }],
    ['get_usage', 'tools/call', { name: 'get_usage', arguments: {} }],
    // A bad argument does not make a call free of the limit.
    [
      'get_occupation_taxonomy, an unknown argument',
      'tools/call',
      { name: 'get_occupation_taxonomy', arguments: { zzz: 1 } },
    ],
    ['get_usage, an unknown argument', 'tools/call', { name: 'get_usage', arguments: { zzz: 1 } }],
  ])('%s: the third in a second of a 2 rps account is refused', async (_label, method, params) => {
    const key = await newKey({ plan: 'free' });
    const message = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let id = 1; id <= 3; id++) {
      last = await post(message(id), { 'X-API-Key': key });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await last?.json()) as object;
    if (method === 'tools/call') {
      // A tool call over the limit is a tool result (contract §21.7), whichever tool it is.
      expect(statuses[2]).toBe(200);
      expect(body).toMatchObject({
        result: { isError: true, structuredContent: { error: { code: 'rate_limit_exceeded' } } },
      });
    } else {
      expect(statuses[2]).toBe(429);
      expect(body).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    }
  });

  // contract §18.2, §19.1: a refusal of the transport after a good key is an authenticated
  // response: it carries the rate and usage headers and counts, so a burst of them meets the 429.
  const probe = {
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2099-01-01',
        'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const taxonomyCall = (args: unknown) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_occupation_taxonomy', arguments: args },
    });
  const manyKeys = Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`k${i}`, 1]));
  // As text: JSON.stringify of so deep an object overflows the stack here too.
  const deepCall = taxonomyCall({ level: 'DEEP' }).replace(
    '"DEEP"',
    `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  );
  it.each([
    ['a query parameter', '?foo=1', listTools, {}, 400],
    ['malformed JSON', '', '{', {}, 422],
    ['a batch', '', `[${listTools}]`, {}, 400],
    // message-shape.ts: refused before the SDK copies it (it held the event loop up to a second).
    ['a message of 6,000 argument names', '', taxonomyCall(manyKeys), {}, 422],
    ['a message nested 5,000 deep', '', deepCall, {}, 422],
    // Refused from its bytes, before JSON.parse held the event loop 150-200 ms on it (it was the
    // 400 of a batch, after the parse).
    ['a megabyte of brackets', '', `${'['.repeat(500_000)}${']'.repeat(500_000)}`, {}, 422],
    [
      'an unsupported protocol version',
      '',
      listTools,
      { 'MCP-Protocol-Version': '1999-01-01' },
      400,
    ],
    [
      "a newer revision's discovery probe",
      '',
      JSON.stringify(probe),
      { 'MCP-Protocol-Version': '2099-01-01', 'Mcp-Method': 'server/discover' },
      400,
    ],
  ])(
    '%s: refused with the headers, and the third in a second of a 2 rps account is a 429',
    async (_label, query, body, headers, status) => {
      const key = await newKey({ plan: 'free' });
      const send = () =>
        fetch(`${baseUrl}/mcp${query}`, {
          method: 'POST',
          headers: { ...JSON_RPC, 'X-API-Key': key, ...headers },
          body,
        });
      const first = await send();
      const second = await send();
      const third = await send();
      expect([first.status, second.status, third.status]).toEqual([status, status, 429]);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(first.headers.get('x-service-opportunity-limit')).toBe('1000');
      expect(third.headers.get('retry-after')).not.toBeNull();
      expect(await third.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    },
  );

  // admission.ts: a reading tool is counted once, by the ReadService, like its REST twin; only a call
  // that never reaches it is admitted against the protocol window. Each test exhausts the account's
  // protocol window (its Redis counter, set ahead) and leaves the read window alone.
  describe('a reading tool is counted by the ReadService only', () => {
    const FREE: AccountInput = { plan: 'free', ...ROOMY };
    async function protocolWindowUsedUp(): Promise<string> {
      const { accountId, key } = await accountWithKey(ctx.deps, FREE);
      const redis = ctx.deps.redis;
      if (!redis) throw new Error('this test needs Redis (TEST_REDIS_URL)');
      await redis.set(
        `rl:${ctx.deps.databaseName}:protocol:${protocolLimit(ROOMY.rps_override)}:${accountId}`,
        1_000_000,
        'PX',
        120_000,
      );
      return key.key;
    }

    it('a search is served with its own headers while the protocol window is used up', async () => {
      const key = await protocolWindowUsedUp();
      // The window really is used up: the handshake, which it limits, is refused.
      const hello = await post(JSON.stringify(initializeMessage()), { 'X-API-Key': key });
      expect(hello.status).toBe(429);
      const res = await post(JSON.stringify(toolCall(2, 'search_opportunities', { limit: 2 })), {
        'X-API-Key': key,
      });
      expect(res.status).toBe(200);
      const reply = (await res.json()) as { result: { isError?: boolean } };
      expect(reply.result.isError).toBeFalsy();
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
      expect(res.headers.get('x-service-new-opportunity-count')).toBe('2');
    });

    it.each([['params the SDK refuses', 'count_opportunities', 'x']])(
      'a reading tool call that never reaches the service (%s) is admitted as a protocol message',
      async (_label, name, args) => {
        const message = JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name, arguments: args },
        });
        const refused = await post(message, { 'X-API-Key': await protocolWindowUsedUp() });
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
        // With room in the window it is answered, with the window's headers.
        const answered = await post(message, { 'X-API-Key': await newKey(FREE) });
        expect(answered.status).toBe(200);
        expect(answered.headers.get('x-ratelimit-limit')).toBe('1000');
        expect(answered.headers.get('x-ratelimit-remaining')).toBe('1000');
        expect(answered.headers.get('x-service-plan')).toBe('free');
      },
    );
  });

  // It used to be refused before the service, as a protocol message: unspent id, looser limit.
  it('get_opportunity with an unknown argument is a read refused: it spends its id and counts', async () => {
    const key = await newKey({ plan: 'free' });
    const id = `unknown-arg-${Date.now()}`;
    const message = JSON.stringify(
      toolCall(4, 'get_opportunity', { id: records[0]?.id, opportunity_id: 'x' }),
    );
    const res = await post(message, { 'X-API-Key': key, 'X-Request-ID': id });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { result: Record<string, unknown> };
    expect(reply.result.isError).toBe(true);
    expect(codeOf(reply.result)).toBe('invalid_filter');
    expect(res.headers.get('x-ratelimit-limit')).toBe('2');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1');
    // The id is spent, as by GET /v1/opportunities/{id}?opportunity_id=x.
    const again = await fetch(`${baseUrl}/v1/opportunities?limit=1`, {
      headers: { 'X-API-Key': key, 'X-Request-ID': id },
    });
    expect(again.status).toBe(409);
  });

  // A body that is no JSON-RPC message was held to the looser protocol limit (20 a second for a
  // 2 rps account): ten times the account's limit in refusals.
  it.each([
    ['{"foo":1}'],
    ['{"jsonrpc":"2.0","id":1}'],
    ['{"jsonrpc":"2.0","method":5,"id":1}'],
    ['5'],
  ])('a body that is no message (%s) is a read refused: it counts', async (body) => {
    const key = await newKey({ plan: 'free' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(body, { 'X-API-Key': key })).status);
    expect(statuses).toEqual([422, 422, 429]);
  });

  it('server/discover (2026-07-28) counts too', async () => {
    const key = await newKey({ plan: 'free' });
    const discover = discoverMessage();
    const headers = {
      'X-API-Key': key,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'server/discover',
    };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(discover, headers)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
