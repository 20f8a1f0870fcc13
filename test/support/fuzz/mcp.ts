import fc from 'fast-check';
import { anyText, keywordText } from './text';
import {
  assemble,
  cursorArb,
  extraHeader,
  headerSafe,
  keyKind,
  keyValue,
  requestIdHeader,
  type FuzzRequest,
  type KeyPlacement,
  type World,
} from './requests';

// Random and malformed MCP payloads for POST /mcp: JSON-RPC messages and batches with known and
// unknown methods and tools, arguments of the wrong types, broken envelopes, non-JSON and
// oversized bodies, wrong Accept / Content-Type / MCP-Protocol-Version.

const TOOLS = [
  'search_opportunities',
  'get_opportunity',
  'count_opportunities',
  'get_occupation_taxonomy',
  'get_usage',
];
const ARG_NAMES = [
  'id',
  'cursor',
  'limit',
  'job_family',
  'job_class',
  'level',
  'remote',
  'country',
  'rate_min',
  'published_after',
  'unseen_only',
  'max_new',
  'group_by',
  'group_limit',
  'include_new_count',
  'since',
  'opportunity_id',
  'q',
  'sort',
];

/** Any JSON value, of any type an agent might put where another was expected. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: anyText },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc.array(fc.oneof(anyText, fc.constantFrom('data', 'senior', 'US')), {
      maxLength: 4,
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom('data', 'senior', 'US', 'true', 5, 100, 101, 0, -1) },
);

function argValue(name: string, world: World): fc.Arbitrary<unknown> {
  if (name === 'cursor') return fc.oneof(cursorArb(world), anyValue);
  if (name === 'id') return fc.oneof(fc.constantFrom(...world.ids), fc.uuid(), anyValue);
  if (name === 'q') return fc.oneof({ weight: 3, arbitrary: keywordText }, anyValue);
  if (name === 'sort') return fc.oneof(fc.constantFrom('relevance', 'freshness'), anyValue);
  return anyValue;
}

function toolArguments(world: World): fc.Arbitrary<unknown> {
  const object = fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ARG_NAMES) },
        { weight: 1, arbitrary: anyText },
      ),
      { maxLength: 4 },
    )
    .chain((names) =>
      fc
        .tuple(...names.map((n) => argValue(n, world)))
        .map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]]))),
    );
  return fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: anyValue });
}

const rpcId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 16, arbitrary: fc.nat({ max: 5 }) },
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, -1, 1.5, true, {}, []) },
);

/** One message: mostly well-formed requests, sometimes notifications and broken envelopes. */
function message(world: World): fc.Arbitrary<unknown> {
  const call = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    method: fc.constant('tools/call'),
    params: fc.record(
      {
        name: fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...TOOLS) },
          { weight: 1, arbitrary: anyValue },
        ),
        arguments: toolArguments(world),
      },
      { requiredKeys: ['name'] },
    ),
  });
  const protocol = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    method: fc.constantFrom(
      'ping',
      'tools/list',
      'resources/list',
      'resources/templates/list',
      'prompts/list',
      'no/such',
    ),
  });
  const read = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    method: fc.constant('resources/read'),
    params: fc.record({ uri: fc.oneof(fc.constant('taxonomy://occupations'), anyValue) }),
  });
  const initialize = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: rpcId,
    method: fc.constant('initialize'),
    params: fc.record({
      protocolVersion: fc.constantFrom('2025-06-18', '2024-11-05', '1999-01-01', ''),
      capabilities: fc.constant({}),
      clientInfo: fc.constant({ name: 'fuzz', version: '1' }),
    }),
  });
  const notification = fc.record({
    jsonrpc: fc.constant('2.0'),
    method: fc.constantFrom(
      'notifications/initialized',
      'notifications/cancelled',
      'notifications/x',
    ),
  });
  const broken = fc.oneof(
    fc.record(
      { jsonrpc: anyValue, id: rpcId, method: anyValue, params: anyValue },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );
  return fc.oneof(
    { weight: 16, arbitrary: call },
    { weight: 2, arbitrary: protocol },
    { weight: 1, arbitrary: read },
    { weight: 1, arbitrary: initialize },
    { weight: 1, arbitrary: notification },
    { weight: 1, arbitrary: broken },
  );
}

/** The body as sent: one message, a batch, or not JSON-RPC (or not JSON) at all. */
function body(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: message(world).map((m) => JSON.stringify(m)) },
    {
      weight: 3,
      arbitrary: fc
        .array(message(world), { maxLength: 4, size: 'small' })
        .map((b) => JSON.stringify(b)),
    },
    { weight: 1, arbitrary: anyText },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '[]',
        'null',
        '"x"',
        '{"jsonrpc":"2.0","id":1,"method":"ping"',
        '\u0000',
      ),
    },
    {
      // Past the 1 MB limit (rare: each one is a megabyte on the wire).
      weight: 1,
      arbitrary: fc
        .constantFrom(1_100_000, 2_000)
        .map((n) =>
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'a'.repeat(n) } }),
        ),
    },
  );
}

const ACCEPT = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json, text/event-stream') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      'application/json',
      'text/event-stream',
      '*/*',
      'text/html',
      'application/json;q=0, text/event-stream',
    ),
  },
);
const CONTENT_TYPE = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      'text/plain',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json;',
      'Application/JSON',
      'text/plain; a=application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ),
  },
);

export function mcpRequest(world: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant('POST') },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'OPTIONS', 'HEAD') },
      ),
      key: fc.option(
        fc.record({
          kind: keyKind,
          placement: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom<KeyPlacement>('x-api-key', 'bearer') },
            { weight: 1, arbitrary: fc.constantFrom<KeyPlacement>('both', 'query') },
          ),
        }),
        { freq: 5, nil: null },
      ),
      requestId: requestIdHeader(),
      accept: fc.option(ACCEPT, { freq: 10, nil: null }),
      contentType: fc.option(CONTENT_TYPE, { freq: 10, nil: null }),
      protocolVersion: fc.oneof(
        { weight: 8, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('2025-06-18', '2025-03-26', '1999-01-01') },
        { weight: 1, arbitrary: anyText.map(headerSafe) },
      ),
      extra: fc.array(extraHeader, { maxLength: 2 }),
      body: body(world),
    })
    .chain((r) =>
      (r.key ? keyValue(r.key.kind, world) : fc.constant('')).map((secret) => {
        const headers: [string, string][] = [];
        if (r.accept !== null) headers.push(['Accept', r.accept]);
        if (r.contentType !== null) headers.push(['Content-Type', r.contentType]);
        if (r.protocolVersion !== null) headers.push(['MCP-Protocol-Version', r.protocolVersion]);
        headers.push(...r.extra);
        return assemble({ ...r, endpoint: 'mcp', target: '/mcp', secret, headers });
      }),
    );
}
