import { z } from 'zod';
import {
  FILTER_PARAMS,
  ISO_COUNTRY_CODES,
  PREVIEW_PARAMS,
  filterDigest,
  parseRestQuery,
  parseToolArgs,
  restQuerySchema,
  toolArgsSchema,
} from '../../src/domain/filters';
import { wellFormedArguments } from '../../src/domain/well-formed';
import type { Endpoint } from '../../src/domain/filters';
import { apiErrorOf, summary, taxonomy } from './taxonomy-fixture';

// MCP tool arguments follow the REST rules and codes (contract §21.6); schemas describe, never reject.

const ctx = { taxonomy, maxPageSize: 100 };
type Args = Record<string, unknown>;
const row = (status: number, code: string, parameter: string, reason: string) => ({
  status,
  code,
  parameter,
  reason,
});

describe.each<[string, Endpoint, Args, ReturnType<typeof row>]>([
  [
    'unknown argument',
    'list',
    { api_key: 'oppk_x' },
    row(400, 'invalid_filter', 'api_key', 'unknown_parameter'),
  ],
  ['limit in count', 'count', { limit: 5 }, row(400, 'invalid_filter', 'limit', 'unsupported')],
  [
    'remote as "maybe"',
    'list',
    { remote: 'maybe' },
    row(422, 'validation_error', 'remote', 'bad_format'),
  ],
  [
    'remote as "true"',
    'list',
    { remote: 'true' },
    row(422, 'validation_error', 'remote', 'bad_format'),
  ],
  [
    'limit as a string',
    'list',
    { limit: '10' },
    row(422, 'validation_error', 'limit', 'bad_format'),
  ],
  ['limit 1.5', 'list', { limit: 1.5 }, row(422, 'validation_error', 'limit', 'bad_format')],
  ['limit 0', 'list', { limit: 0 }, row(422, 'validation_error', 'limit', 'out_of_range')],
  ['limit 101', 'list', { limit: 101 }, row(400, 'page_size_exceeded', 'limit', 'out_of_range')],
  ['rate_min -1', 'list', { rate_min: -1 }, row(422, 'validation_error', 'rate_min', 'bad_format')],
  // REST's rule: at most 308 digits before the point (309 ones was served here, 422 on REST).
  [
    'rate_min of 309 digits',
    'count',
    { rate_min: '1'.repeat(309) },
    row(422, 'validation_error', 'rate_min', 'out_of_range'),
  ],
  [
    'rate_min "1e3"',
    'list',
    { rate_min: '1e3' },
    row(422, 'validation_error', 'rate_min', 'bad_format'),
  ],
  [
    'rate_max boolean',
    'count',
    { rate_max: true },
    row(422, 'validation_error', 'rate_max', 'bad_format'),
  ],
  [
    'list as a string',
    'list',
    { job_family: 'data' },
    row(422, 'validation_error', 'job_family', 'bad_format'),
  ],
  ['list of numbers', 'list', { level: [1] }, row(422, 'validation_error', 'level', 'bad_format')],
  ['empty list', 'list', { level: [] }, row(422, 'validation_error', 'level', 'bad_format')],
  [
    'empty list item',
    'list',
    { level: ['senior', ''] },
    row(422, 'validation_error', 'level', 'bad_format'),
  ],
  [
    'date as a number',
    'list',
    { published_after: 1767225600000 },
    row(422, 'validation_error', 'published_after', 'bad_format'),
  ],
  [
    'array for one value',
    'list',
    { country: ['US'] },
    row(400, 'invalid_filter', 'country', 'not_a_list'),
  ],
  [
    'comma list for one value',
    'list',
    { engagement_model: 'c2c,1099' },
    row(400, 'invalid_filter', 'engagement_model', 'not_a_list'),
  ],
  [
    'unknown enum item',
    'list',
    { pay_basis: ['hourly', 'weekly'] },
    row(400, 'invalid_filter', 'pay_basis', 'unknown_value'),
  ],
  [
    'wrong taxonomy level',
    'list',
    { job_class: ['data'] },
    row(400, 'invalid_filter', 'job_class', 'unknown_value'),
  ],
  [
    'country USA',
    'count',
    { country: 'USA' },
    row(400, 'invalid_filter', 'country', 'unknown_value'),
  ],
  [
    'subfamily outside families',
    'list',
    { job_family: ['software_engineering'], job_subfamily: ['analytics'] },
    row(400, 'invalid_filter', 'job_subfamily', 'out_of_range'),
  ],
])('%s', (_name, endpoint, args, expected) => {
  it(`${endpoint} → ${expected.status} ${expected.code}`, () => {
    expect(summary(apiErrorOf(() => parseToolArgs(endpoint, args, ctx)))).toEqual(expected);
  });
});

describe('tool arguments', () => {
  it('normalize exactly like the equivalent REST query', () => {
    const fromTool = parseToolArgs(
      'list',
      {
        job_family: ['data', 'software_engineering'],
        job_subfamily: ['data_engineering'],
        level: ['staff', 'senior', 'staff'],
        remote: true,
        country: 'gb',
        rate_min: '80.5',
        rate_max: 120,
        fresh_after: '2026-01-01',
        cursor: 'tok',
        limit: 50,
      },
      ctx,
    );
    const fromRest = parseRestQuery(
      'list',
      {
        job_family: 'data,software_engineering',
        job_subfamily: 'data_engineering',
        level: 'staff,senior',
        remote: 'true',
        country: 'GB',
        rate_min: '80.5',
        rate_max: '120',
        fresh_after: '2026-01-01T00:00:00Z',
        cursor: 'tok',
        limit: '50',
      },
      ctx,
    );
    expect(fromTool).toEqual(fromRest);
    expect(fromTool.appliedFilters.rate_min).toBe(80.5);
  });

  it('treat null and undefined as not given', () => {
    expect(parseToolArgs('list', { remote: null, level: undefined }, ctx)).toEqual({
      filter: {},
      appliedFilters: {},
      limit: 25,
      options: { groupLimit: 10, includeNewCount: false },
    });
  });
});

describe('schemas', () => {
  const props = (schema: z.ZodType) =>
    (
      z.toJSONSchema(schema, { io: 'input' }) as {
        properties: Record<string, Record<string, unknown>>;
      }
    ).properties;

  it('REST schemas list each endpoint’s parameters, typed and described', () => {
    const [q, ...filters] = FILTER_PARAMS;
    expect(q).toBe('q');
    // contract §7.5: sort (list and preview only) follows q in the catalog.
    expect(Object.keys(props(restQuerySchema('list')))).toEqual([
      'q',
      'sort',
      ...filters,
      'unseen_only',
      'cursor',
      'limit',
      'max_new',
      'fields',
    ]);
    expect(Object.keys(props(restQuerySchema('count')))).toEqual([
      ...FILTER_PARAMS,
      'group_by',
      'group_limit',
      'include',
      'histogram',
      'interval',
      'stats',
    ]);
    expect(Object.keys(props(restQuerySchema('preview'))).sort()).toEqual(
      [...PREVIEW_PARAMS].sort(),
    );
    const list = props(restQuerySchema('list'));
    for (const p of Object.values(list)) expect(typeof p.description).toBe('string');
    // Integers, arrays of enums, enums, booleans; text never blank.
    expect(list.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(list.max_new).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(props(restQuerySchema('count')).group_limit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
    expect(list.level).toMatchObject({ type: 'array', minItems: 1, items: { type: 'string' } });
    expect((list.level?.items as { enum: string[] }).enum).toContain('senior');
    expect(list.engagement_model?.enum).toEqual(['w2_contract', '1099', 'c2c']);
    expect(list.remote).toMatchObject({ type: 'boolean' });
    expect(list.city).toMatchObject({ type: 'string', minLength: 1, maxLength: 300 });
    expect(list.rate_min?.pattern).toBe('^\\d{1,308}(\\.\\d+)?$');
    expect(JSON.stringify(list)).not.toMatch(/"pattern":"\^\(intern/); // no enum as a pattern
    const preview = props(restQuerySchema('preview'));
    expect(preview.level?.enum).toContain('senior'); // one value in the preview
    expect(preview.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
  });

  it('tool schemas declare JSON types but let every value through to the service', () => {
    const schema = toolArgsSchema('list');
    const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    const p = props(schema);
    expect(json.additionalProperties).toBe(false);
    expect(json.required).toBeUndefined();
    expect(p.level).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(p.remote).toMatchObject({ type: 'boolean' });
    expect(p.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(p.published_after).toMatchObject({ type: 'string' });
    expect(String(p.job_family?.description)).toMatch(/descendant/);
    expect(String(p.remote?.description)).toMatch(/NOT mean worldwide/);
    const loose = schema.safeParse({ remote: 'maybe', limit: '10', foo: 1 });
    expect(loose.success && loose.data).toEqual({ remote: 'maybe', limit: '10', foo: 1 });
  });
});

describe('filterDigest', () => {
  it('is stable under key and list order', () => {
    const a = filterDigest({ level: ['senior', 'staff'], remote: true, country: 'US' });
    const b = filterDigest({ country: 'US', remote: true, level: ['staff', 'senior'] });
    expect(a).toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('changes with any filter value or parameter', () => {
    const base = filterDigest({ level: ['senior'], remote: true });
    expect(filterDigest({ level: ['staff'], remote: true })).not.toBe(base);
    expect(filterDigest({ level: ['senior'], remote: false })).not.toBe(base);
    expect(filterDigest({ level: ['senior'], remote: true, rate_min: 0 })).not.toBe(base);
    expect(filterDigest({ job_family: ['senior'], remote: true })).not.toBe(base);
    expect(filterDigest({})).not.toBe(base);
  });

  // Text filters match case-insensitively, so their case does not make another query.
  it('is the same whatever the case of a text filter', () => {
    const base = filterDigest({ city: 'Boston', source: 'greenhouse', currency: 'USD' });
    expect(filterDigest({ city: 'BOSTON', source: 'GreenHouse', currency: 'usd' })).toBe(base);
    expect(filterDigest({ city: 'İSTANBUL' })).toBe(filterDigest({ city: 'istanbul' }));
    expect(filterDigest({ city: 'Bostonia', source: 'greenhouse', currency: 'USD' })).not.toBe(
      base,
    );
  });

  it('echoes a currency upper-case, as it echoes a country', () => {
    const parsed = parseRestQuery('list', { currency: 'usd', country: 'us' }, ctx);
    expect(parsed.appliedFilters).toMatchObject({ currency: 'USD', country: 'US' });
  });

  // A default stated aloud is the same query: a cursor of one serves the other.
  it('is the same with sort=freshness or unseen_only=false as without them', () => {
    const base = filterDigest({ level: ['senior'] });
    expect(filterDigest({ level: ['senior'], sort: 'freshness' })).toBe(base);
    expect(filterDigest({ level: ['senior'], unseen_only: false })).toBe(base);
    expect(filterDigest({ level: ['senior'], unseen_only: true })).not.toBe(base);
    expect(filterDigest({ level: ['senior'], sort: 'relevance' })).not.toBe(base);
  });
});

it('knows the 249 assigned ISO 3166-1 alpha-2 codes', () => {
  expect(ISO_COUNTRY_CODES.size).toBe(249);
  expect(ISO_COUNTRY_CODES.has('US') && ISO_COUNTRY_CODES.has('GB')).toBe(true);
  expect(ISO_COUNTRY_CODES.has('ZQ') || ISO_COUNTRY_CODES.has('UK')).toBe(false);
});

// contract §6.14: a key pasted into an argument is refused as on REST (an unknown parameter),
// never shown back in a message or applied_filters, nor sent to the engine.
describe('a key pasted as an argument value', () => {
  const SECRET = 'oppk_ThisLooksLikeAKeyAndMustNeverBeEchoed0123';
  it.each<[string, Args]>([
    ['level', { level: [SECRET] }],
    ['country', { country: SECRET }],
    ['fields', { fields: [SECRET] }],
    ['sort', { sort: SECRET }],
    ['q', { q: `golang ${SECRET}` }],
    ['city', { city: SECRET }],
  ])('%s: 400 unknown_parameter, the key not in the message', (name, args) => {
    const err = apiErrorOf(() => parseToolArgs('list', args, ctx));
    expect({ status: err.status, code: err.code, details: err.details }).toEqual({
      status: 400,
      code: 'invalid_filter',
      details: { parameter: name, reason: 'unknown_parameter' },
    });
    expect(err.message).not.toContain(SECRET);
  });
});

// A JSON string can hold a lone surrogate, a URL cannot: REST reads invalid UTF-8 as U+FFFD, and
// the tool-protocol boundary reads a lone surrogate so (src/mcp/server.ts: wellFormedArguments),
// in every name and value (a `city` searched for it and echoed it raw, an unknown name too).
describe('a lone surrogate in a tool argument', () => {
  const parsed = (args: Args) => parseToolArgs('count', wellFormedArguments(args), ctx);

  it.each<[string, unknown, unknown]>([
    ['q', 'rust \ud800', 'rust \ufffd'],
    ['q', '\udc00go \ud83d\ude80', '\ufffdgo 🚀'],
    ['city', 'Z\ud800rich', 'Z\ufffdrich'],
    ['normalized_title', '\udfffdev', '\ufffddev'],
    ['source', 'greenhouse\ud83d', 'greenhouse\ufffd'],
    ['specializations', 'rust\udc00', 'rust\ufffd'],
  ])(
    '%s %j is read as %j, as REST reads the bytes; a pair stays one character',
    (name, v, read) => {
      expect(parsed({ [name]: v }).filter[name as 'q']).toEqual(read);
    },
  );

  it('in a list argument, item by item (the refusal names the value as REST would)', () => {
    const err = apiErrorOf(() => parsed({ level: ['senior', 'x\ud800'] }));
    expect(err.details).toEqual({ parameter: 'level', reason: 'unknown_value' });
    expect(err.message).toContain('"x\ufffd"');
  });

  it("in an argument's name: the unknown argument is named with U+FFFD", () => {
    const err = apiErrorOf(() => parsed({ 'ci\ud800ty': 'x' }));
    expect(err.details).toEqual({ parameter: 'ci\ufffdty', reason: 'unknown_parameter' });
  });

  it('keeps what is not a string, and an own __proto__ name as an argument', () => {
    const args = JSON.parse('{"__proto__": "x", "limit": 5, "remote": true, "n": null}') as Args;
    const read = wellFormedArguments(args);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(['__proto__', 'limit', 'remote', 'n']);
    expect(read).toMatchObject({ limit: 5, remote: true, n: null });
    expect(wellFormedArguments({ a: [['\ud800'], { b: '\udc00' }] })).toEqual({
      a: [['\ufffd'], { b: '\ufffd' }],
    });
  });
});

// contract §6.11.6: an ISO code compares by each character's simple lower case, as the engine does.
describe('country and currency codes in another case', () => {
  it.each([
    ['us', 'US'],
    ['Us', 'US'],
    ['\u212Ay', 'KY'], // the Kelvin sign's simple lower case is k
  ])('country %j is %s', (v, code) => {
    expect(parseToolArgs('count', { country: v }, ctx).filter.country).toBe(code);
    expect(parseRestQuery('count', { country: v }, ctx).filter.country).toBe(code);
  });

  it.each(['ır', 'ſe', 'ßa'])('country %j is no code in any case: 400 unknown_value', (v) => {
    expect(summary(apiErrorOf(() => parseToolArgs('count', { country: v }, ctx)))).toMatchObject({
      status: 400,
      code: 'invalid_filter',
      parameter: 'country',
      reason: 'unknown_value',
    });
  });

  it.each([
    ['usd', 'USD'],
    ['\u212Aes', 'KES'],
    ['uſd', 'UſD'], // ſ is its own simple lower case: it matches no USD record
    ['ßp', 'ßP'], // not SSP
    ['ınr', 'ıNR'], // not INR
  ])('currency %j is read as %j', (v, read) => {
    expect(parseToolArgs('count', { currency: v }, ctx).filter.currency).toEqual(read);
    expect(parseRestQuery('count', { currency: v }, ctx).filter.currency).toEqual(read);
  });
});
