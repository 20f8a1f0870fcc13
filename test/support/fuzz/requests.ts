import fc from 'fast-check';
import { anyText, keywordText, longRun, onTheWire, percentJunk, rawForRequestLine } from './text';

// Random and malformed HTTP requests for every endpoint of the service, built
// from what a fuzz run knows about its world: real keys of several kinds, real cursors, real ids.

export type Endpoint =
  | 'list'
  | 'count'
  | 'detail'
  | 'changes'
  | 'usage'
  | 'taxonomy'
  | 'preview'
  | 'public'
  | 'mcp'
  | 'stray';

/** Keys by what they should get: a usable account, a Free one (2 rps), a wallet of 3 records... */
export type KeyKind = 'valid' | 'free' | 'wallet' | 'revoked' | 'disabled' | 'unknown' | 'garbage';
export type KeyPlacement = 'x-api-key' | 'bearer' | 'both' | 'query';

export interface World {
  keys: Record<Exclude<KeyKind, 'unknown' | 'garbage'>, string>;
  /** Real cursors: list pages of several filters and accounts, change-feed pages. */
  cursors: string[];
  /** Ids of stored records. */
  ids: string[];
}

export interface FuzzRequest {
  endpoint: Endpoint;
  method: string;
  /** Path and query exactly as they go on the request line. */
  target: string;
  headers: [string, string][];
  body: string;
  /** What the checks need to know about the request. */
  key: { kind: KeyKind; placement: KeyPlacement } | null;
  requestId: 'none' | 'fresh' | 'reused' | 'bad';
}

// ---------------------------------------------------------------------------------------------
// Query strings

const DATES = [
  '2026-09-10',
  '2026-09-10T00:00:00Z',
  '2026-09-10T02:00:00+02:00',
  '2026-09-10T00:00:00.123456789Z',
  '2026-13-45',
  '2026-02-30',
  '2026-09-10T25:00:00Z',
  '2026-09-10T00:00:00',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  'yesterday',
];
const TAXONOMY = [
  'software_data_ai',
  'data',
  'data_engineering',
  'snowflake_data_engineer',
  'software_engineering',
  'react_developer',
  'devops_engineer',
  'Data',
  'no_such_node',
  'root',
];
const NUMBERS = [
  '0',
  '80',
  '80.5',
  '-1',
  '1e3',
  '0.0001',
  '9'.repeat(30),
  '.5',
  '5.',
  '+5',
  '0x1F',
];
const LIMITS = ['1', '2', '5', '25', '100', '101', '0', '-1', 'abc', '1.5', '1000000', ' 5', '05'];
const BOOLS = ['true', 'false', 'TRUE', '1', '0', 'yes', ''];
const ENUMS: Record<string, string[]> = {
  level: ['senior', 'staff', 'intern', 'Senior', 'ceo'],
  management_track: ['individual_contributor', 'people_manager', 'boss'],
  engagement_model: ['w2_contract', '1099', 'c2c', 'freelance'],
  commercial_eligibility: ['eligible', 'unknown', 'maybe'],
  actionability: ['actionable', 'not_actionable', 'x'],
  pay_basis: ['hourly', 'daily', 'annual', 'weekly'],
  work_structure: ['ongoing_contract', 'contract_duration', 'fixed_project', 'gig'],
  liveness_status: ['live', 'dead', 'blocked', 'unknown', 'zombie'],
  country: ['US', 'us', 'GB', 'ZQ', 'USA', 'U'],
  currency: ['USD', 'EUR', 'usd', 'XXX'],
  source: ['greenhouse', 'lever', 'nowhere'],
  group_by: [
    'level',
    'job_family',
    'remote',
    'country,level',
    'level,level',
    'level,country,source',
    'nope',
  ],
  include: ['new_count', 'NEW_COUNT', 'new_count,new_count', 'x'],
  sort: ['relevance', 'freshness', 'RELEVANCE', 'score'],
};

const FILTERS = [
  'q',
  'published_after',
  'published_before',
  'fresh_after',
  'job_domain',
  'job_family',
  'job_subfamily',
  'job_class',
  'normalized_title',
  'level',
  'management_track',
  'specializations',
  'engagement_model',
  'commercial_eligibility',
  'actionability',
  'remote',
  'country',
  'city',
  'state',
  'region',
  'rate_min',
  'rate_max',
  'currency',
  'pay_basis',
  'work_structure',
  'source',
  'liveness_status',
  'first_seen_after',
  'changed_since',
];

/** Parameter names each endpoint documents (contract §6, §9.2, §10, §11). */
const PARAMS: Record<string, string[]> = {
  list: [...FILTERS, 'sort', 'cursor', 'limit', 'unseen_only', 'max_new'],
  count: [...FILTERS, 'group_by', 'group_limit', 'include'],
  changes: ['since', 'cursor', 'limit'],
  preview: [
    'q',
    'sort',
    'published_after',
    'job_family',
    'job_subfamily',
    'job_class',
    'level',
    'engagement_model',
    'commercial_eligibility',
    'remote',
    'region',
    'rate_min',
    'pay_basis',
    'work_structure',
    'liveness_status',
    'cursor',
    'limit',
  ],
};

/** Values that mean something for this parameter, and near misses. */
function plausible(name: string, world: World): fc.Arbitrary<string> {
  if (name === 'cursor') return cursorArb(world);
  if (name === 'q') return keywordText;
  if (/(_after|_before|_since|^since)$/.test(name)) return fc.constantFrom(...DATES);
  if (name.startsWith('job_')) {
    return fc
      .array(fc.constantFrom(...TAXONOMY), { minLength: 1, maxLength: 3 })
      .map((v) => v.join(','));
  }
  if (name.startsWith('rate_')) return fc.constantFrom(...NUMBERS);
  if (name === 'limit' || name === 'group_limit' || name === 'max_new') {
    return fc.constantFrom(...LIMITS);
  }
  if (name === 'remote' || name === 'unseen_only') return fc.constantFrom(...BOOLS);
  const values = ENUMS[name];
  if (values) {
    return fc
      .array(fc.constantFrom(...values), { minLength: 1, maxLength: 3 })
      .map((v) => v.join(','));
  }
  return fc.constantFrom('Austin', 'TX', 'California', 'snowflake', 'data engineer', '');
}

/** One `name=value` piece of a query string, well-formed or not. */
function queryPiece(endpoint: Endpoint, world: World): fc.Arbitrary<string> {
  const names = PARAMS[endpoint] ?? [];
  const known: fc.Arbitrary<string>[] = names.length
    ? [
        fc
          .constantFrom(...names)
          .chain((name) =>
            fc
              .tuple(
                fc.constant(name),
                fc.oneof({ weight: 8, arbitrary: plausible(name, world) }, anyText),
              )
              .chain(([n, v]) => onTheWire(v).map((wire) => `${n}=${wire}`)),
          ),
      ]
    : [];
  // contract §19.9: every parameter also gets a long run of one character, raw on the wire.
  const runs: fc.Arbitrary<string>[] = names.length
    ? [
        fc
          .tuple(fc.constantFrom(...names), longRun)
          .map(([name, run]) => `${name}=${rawForRequestLine(run)}`),
      ]
    : [];
  return fc.oneof(
    ...known.map((arbitrary) => ({ weight: 12, arbitrary })),
    ...runs.map((arbitrary) => ({ weight: 1, arbitrary })),
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyText, anyText)
        .chain(([n, v]) => fc.tuple(onTheWire(n), onTheWire(v)).map(([wn, wv]) => `${wn}=${wv}`)),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'limit',
        '=',
        '=5',
        'limit[]=5',
        'limit[a]=5',
        'cursor=',
        'api_key=oppk_x',
        '&',
        '%ZZ=1',
        'a=%ZZ',
        '__proto__[x]=1',
        `city=${'%41'.repeat(3000)}`,
      ),
    },
    { weight: 1, arbitrary: percentJunk },
  );
}

function queryString(endpoint: Endpoint, world: World): fc.Arbitrary<string> {
  return fc
    .array(queryPiece(endpoint, world), { maxLength: 5, size: 'small' })
    .map((pieces) => (pieces.length ? `?${pieces.join('&')}` : ''));
}

// ---------------------------------------------------------------------------------------------
// Cursors: real ones, damaged real ones, and forgeries.

const b64 = (s: string) => Buffer.from(s).toString('base64url');

export function cursorArb(world: World): fc.Arbitrary<string> {
  const real = fc.constantFrom(...world.cursors);
  return fc.oneof(
    { weight: 3, arbitrary: real },
    {
      weight: 2,
      arbitrary: fc
        .tuple(real, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }))
        .map(([c, at, ch]) => {
          const i = at % c.length;
          return c.slice(0, i) + (c[i] === ch ? 'A' : ch) + c.slice(i + 1);
        }),
    },
    { weight: 2, arbitrary: fc.tuple(real, fc.nat()).map(([c, at]) => c.slice(0, at % c.length)) },
    {
      weight: 1,
      // Header of one real cursor, payload and signature of another.
      arbitrary: fc.tuple(real, real).map(([a, b]) => {
        const [h] = a.split('.');
        const [, p, s] = b.split('.');
        return `${h}.${p}.${s}`;
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.json(), real)
        .map(([payload, c]) => `${b64('{"alg":"none"}')}.${b64(payload)}.${c.split('.')[2] ?? ''}`),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.json(), fc.json()).map(([h, p]) => `${b64(h)}.${b64(p)}.`),
    },
    { weight: 1, arbitrary: anyText },
  );
}

// ---------------------------------------------------------------------------------------------
// Paths

const STATIC_PATHS: Partial<Record<Endpoint, string>> = {
  list: '/v1/opportunities',
  count: '/v1/opportunities/count',
  changes: '/v1/opportunities/changes',
  usage: '/v1/usage',
  taxonomy: '/v1/taxonomy/occupations',
  preview: '/v1/preview/opportunities',
};
const PUBLIC_PATHS = ['/healthz', '/readyz', '/docs', '/llms.txt', '/v1/openapi.json', '/metrics'];

function detailId(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...world.ids).map((id) => id) },
    { weight: 1, arbitrary: fc.constantFrom(...world.ids).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.uuid().map((id) => id) },
    {
      weight: 3,
      arbitrary: fc
        .oneof(anyText, fc.constantFrom('..', '.', '%2F', 'count%00', 'changes/'))
        .chain(onTheWire),
    },
    { weight: 1, arbitrary: percentJunk },
  );
}

function pathFor(endpoint: Endpoint, world: World): fc.Arbitrary<string> {
  if (endpoint === 'detail') return detailId(world).map((id) => `/v1/opportunities/${id}`);
  if (endpoint === 'public') return fc.constantFrom(...PUBLIC_PATHS);
  if (endpoint === 'mcp') return fc.constantFrom('/mcp', '/mcp/', '/MCP', '/mcp?x=1');
  if (endpoint === 'stray') {
    return fc
      .tuple(
        fc.constantFrom('/', '/v1/', '/v1/opportunities/', '/docs/assets/', '/v2/', '//', '/mcp/'),
        anyText,
      )
      .chain(([prefix, rest]) => onTheWire(rest).map((wire) => prefix + wire));
  }
  return fc.constant(STATIC_PATHS[endpoint] ?? '/');
}

// ---------------------------------------------------------------------------------------------
// Headers

/** Mostly keys that get through, so that most requests reach the deeper paths. */
const keyKind: fc.Arbitrary<KeyKind> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<KeyKind>('valid') },
  { weight: 2, arbitrary: fc.constant<KeyKind>('wallet') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<KeyKind>('free', 'revoked', 'disabled', 'unknown', 'garbage'),
  },
);

function keyValue(kind: KeyKind, world: World): fc.Arbitrary<string> {
  if (kind === 'unknown') return fc.stringMatching(/^oppk_[A-Za-z0-9]{32,40}$/);
  if (kind === 'garbage') return anyText.map(headerSafe);
  return fc.constant(world.keys[kind]);
}

/** Header values cannot carry CR or LF (they would end the header); anything else goes. */
const headerSafe = (v: string) => v.replace(/[\r\n]/g, ' ');

const EXTRA_HEADERS = [
  'If-None-Match',
  'Origin',
  'X-Forwarded-For',
  'Accept',
  'Content-Type',
  'Authorization',
  'X-Marketplace-Proxy-Signature',
  'Cookie',
  'Accept-Encoding',
  'MCP-Protocol-Version',
  'Mcp-Session-Id',
  'Range',
];

/** contract §19.9: every header the service reads, with a long run of one character. */
const RUN_HEADERS = [...EXTRA_HEADERS, 'X-API-Key', 'X-Request-ID', 'X-Forwarded-Proto'];

const extraHeader: fc.Arbitrary<[string, string]> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...RUN_HEADERS), longRun.map(headerSafe)),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(
      fc.constantFrom(...EXTRA_HEADERS),
      fc.oneof(
        anyText.map(headerSafe),
        fc.constantFrom(
          '*',
          'W/"x"',
          '"abc", W/"def"',
          'null',
          'http://evil.example',
          '127.0.0.1, 10.0.0.1',
          '::1',
          'Bearer',
          'Basic Zm9vOmJhcg==',
          't=1,v1=00',
          `t=1763900000,v1=${'ab'.repeat(32)}`,
          'application/json',
          'text/event-stream',
          'gzip, br',
          'bytes=0-10',
        ),
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.stringMatching(/^X-[A-Za-z0-9-]{1,20}$/), anyText.map(headerSafe)),
  },
  {
    // Huge headers: below and above the server's 16 KiB limit.
    weight: 1,
    arbitrary: fc
      .integer({ min: 1_000, max: 20_000 })
      .map((n): [string, string] => ['X-Big', 'a'.repeat(n)]),
  },
);

function requestIdHeader(): fc.Arbitrary<{ kind: FuzzRequest['requestId']; value?: string }> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
    {
      weight: 3,
      arbitrary: fc
        .stringMatching(/^[A-Za-z0-9._:-]{12,40}$/)
        .map((v) => ({ kind: 'fresh' as const, value: `fz-${v}` })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'reused' as const, value: 'fuzz-reused-id' }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(anyText, fc.constant('x'.repeat(129)))
        .filter((v) => !/^[A-Za-z0-9._:-]{1,128}$/.test(v))
        .map((v) => ({ kind: 'bad' as const, value: headerSafe(v) })),
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Whole requests

const METHODS = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH') },
);

/** A REST (or static, or stray) request to `endpoint`, with or without a key. */
export function restRequest(endpoint: Endpoint, world: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: METHODS,
      path: pathFor(endpoint, world),
      query:
        endpoint === 'public' || endpoint === 'stray'
          ? fc.constant('')
          : queryString(endpoint, world),
      key: fc.option(
        fc.record({
          kind: keyKind,
          placement: fc.oneof(
            { weight: 8, arbitrary: fc.constant<KeyPlacement>('x-api-key') },
            { weight: 1, arbitrary: fc.constantFrom<KeyPlacement>('bearer', 'both', 'query') },
          ),
        }),
        { freq: 4, nil: null },
      ),
      requestId: requestIdHeader(),
      extra: fc.array(extraHeader, { maxLength: 3 }),
      body: fc.oneof(
        { weight: 5, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.json() },
      ),
    })
    .chain((r) =>
      (r.key ? keyValue(r.key.kind, world) : fc.constant('')).map((secret) =>
        assemble({ ...r, endpoint, target: r.path + r.query, secret, headers: r.extra }),
      ),
    );
}

/** A request from its parts: the key where `key.placement` says, the request id, the rest. */
export function assemble(parts: {
  endpoint: Endpoint;
  method: string;
  target: string;
  key: FuzzRequest['key'];
  secret: string;
  requestId: { kind: FuzzRequest['requestId']; value?: string };
  headers: [string, string][];
  body: string;
}): FuzzRequest {
  const { key, secret } = parts;
  const headers: [string, string][] = [];
  let target = parts.target;
  if (key) {
    if (key.placement === 'x-api-key' || key.placement === 'both')
      headers.push(['X-API-Key', secret]);
    if (key.placement === 'bearer' || key.placement === 'both') {
      headers.push(['Authorization', `Bearer ${secret}`]);
    }
    if (key.placement === 'query') {
      target += `${target.includes('?') ? '&' : '?'}api_key=${rawForRequestLine(secret)}`;
    }
  }
  if (parts.requestId.value !== undefined) headers.push(['X-Request-ID', parts.requestId.value]);
  headers.push(...parts.headers);
  return {
    endpoint: parts.endpoint,
    method: parts.method,
    target,
    headers,
    body: parts.method === 'GET' || parts.method === 'HEAD' ? '' : parts.body,
    key,
    requestId: parts.requestId.kind,
  };
}

export { headerSafe, keyKind, keyValue, extraHeader, requestIdHeader };

/**
 * A keyword search (contract §7.3) with a valid key: hostile q text (operators in every position,
 * any unicode, 200-character inputs and just past them) on list, count and preview, with or without
 * sort=relevance and another filter. Whatever the text: 200, or 400 invalid_filter, never a 5xx.
 */
export function keywordRequest(world: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      endpoint: fc.constantFrom<Endpoint>('list', 'count', 'preview'),
      q: keywordText.chain(onTheWire),
      sort: fc.constantFrom('', '&sort=relevance', '&sort=freshness'),
      extra: fc.constantFrom('', '&job_family=data', '&remote=true', '&level=senior'),
      requestId: requestIdHeader(),
    })
    .map((r) => {
      const path = { list: '/v1/opportunities', count: '/v1/opportunities/count' }[
        r.endpoint as 'list' | 'count'
      ];
      const target = `${path ?? '/v1/preview/opportunities'}?q=${r.q}${r.endpoint === 'count' ? '' : r.sort}${r.extra}`;
      return assemble({
        endpoint: r.endpoint,
        method: 'GET',
        target,
        key: r.endpoint === 'preview' ? null : { kind: 'valid', placement: 'x-api-key' },
        secret: world.keys.valid,
        requestId: r.requestId,
        headers: [],
        body: '',
      });
    });
}
