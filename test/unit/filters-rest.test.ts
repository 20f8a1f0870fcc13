import { parseRestQuery } from '../../src/domain/filters';
import type { Endpoint } from '../../src/domain/filters';
import { apiErrorOf, summary, taxonomy } from './taxonomy-fixture';

// REST query errors: contract §6 (filters) and §9.2 (preview).

type Query = Record<string, unknown>;
const parse = (endpoint: Endpoint, query: Query, maxPageSize = 100) =>
  parseRestQuery(endpoint, query, { taxonomy, maxPageSize });

const invalid = (parameter: string, reason: string) => ({
  status: 400,
  code: 'invalid_filter',
  parameter,
  reason,
});
const unprocessable = (parameter: string, reason = 'bad_format') => ({
  status: 422,
  code: 'validation_error',
  parameter,
  reason,
});
const tooLarge = {
  status: 400,
  code: 'page_size_exceeded',
  parameter: 'limit',
  reason: 'out_of_range',
};

describe.each<[string, Endpoint, Query, ReturnType<typeof invalid>]>([
  // names: unknown, unsupported, repeated (contract §6.3, §6.14, §9.2)
  ['unknown parameter', 'list', { foo: '1' }, invalid('foo', 'unknown_parameter')],
  ['api key in the query', 'list', { api_key: 'oppk_x' }, invalid('api_key', 'unknown_parameter')],
  ['key in the query', 'count', { key: 'oppk_x' }, invalid('key', 'unknown_parameter')],
  ['repeated parameter', 'list', { level: ['senior', 'staff'] }, invalid('level', 'repeated')],
  [
    'unknown before repeated',
    'list',
    { level: ['a', 'b'], foo: '1' },
    invalid('foo', 'unknown_parameter'),
  ],
  [
    'repeated before values',
    'list',
    { country: 'ZQ', city: ['a', 'b'] },
    invalid('city', 'repeated'),
  ],
  ['cursor in preview', 'preview', { cursor: 'abc' }, invalid('cursor', 'unsupported')],
  [
    'non-preview filter in preview',
    'preview',
    { country: 'US' },
    invalid('country', 'unsupported'),
  ],
  [
    'published_before in preview',
    'preview',
    { published_before: '2026-01-01' },
    invalid('published_before', 'unsupported'),
  ],
  ['cursor in count', 'count', { cursor: 'abc' }, invalid('cursor', 'unsupported')],
  ['limit in count', 'count', { limit: '5' }, invalid('limit', 'unsupported')],
  // lists where one value is allowed
  ['list for country', 'list', { country: 'US,CA' }, invalid('country', 'not_a_list')],
  [
    'list for engagement_model',
    'list',
    { engagement_model: 'c2c,1099' },
    invalid('engagement_model', 'not_a_list'),
  ],
  ['list for remote', 'list', { remote: 'true,false' }, invalid('remote', 'not_a_list')],
  [
    'list for job_domain',
    'list',
    { job_domain: 'technology,technology' },
    invalid('job_domain', 'not_a_list'),
  ],
  [
    'preview job_family is single',
    'preview',
    { job_family: 'data,software_engineering' },
    invalid('job_family', 'not_a_list'),
  ],
  ['preview level is single', 'preview', { level: 'senior,staff' }, invalid('level', 'not_a_list')],
  // unknown values (ids are case-sensitive; labels are unknown ids)
  ['enum in other case', 'list', { level: 'Senior' }, invalid('level', 'unknown_value')],
  ['one bad list item', 'list', { level: 'senior,bogus' }, invalid('level', 'unknown_value')],
  [
    'engagement label',
    'list',
    { engagement_model: 'freelance' },
    invalid('engagement_model', 'unknown_value'),
  ],
  ['pay_basis', 'list', { pay_basis: 'weekly' }, invalid('pay_basis', 'unknown_value')],
  [
    'liveness_status',
    'preview',
    { liveness_status: 'alive' },
    invalid('liveness_status', 'unknown_value'),
  ],
  ['taxonomy label', 'list', { job_family: 'Data' }, invalid('job_family', 'unknown_value')],
  [
    'subfamily as job_family',
    'list',
    { job_family: 'data_engineering' },
    invalid('job_family', 'unknown_value'),
  ],
  [
    'family as job_subfamily',
    'list',
    { job_subfamily: 'data' },
    invalid('job_subfamily', 'unknown_value'),
  ],
  [
    'subfamily as job_class',
    'list',
    { job_class: 'backend' },
    invalid('job_class', 'unknown_value'),
  ],
  ['family as job_domain', 'list', { job_domain: 'data' }, invalid('job_domain', 'unknown_value')],
  ['unassigned country', 'list', { country: 'ZQ' }, invalid('country', 'unknown_value')],
  ['alpha-3 country', 'list', { country: 'USA' }, invalid('country', 'unknown_value')],
  [
    'subfamily outside job_family',
    'list',
    { job_family: 'data', job_subfamily: 'backend' },
    invalid('job_subfamily', 'out_of_range'),
  ],
  // formats (422)
  ['empty value', 'list', { city: '' }, unprocessable('city')],
  ['blank value', 'list', { normalized_title: '  ' }, unprocessable('normalized_title')],
  ['empty list', 'list', { level: '' }, unprocessable('level')],
  ['empty list item', 'list', { level: 'senior,,staff' }, unprocessable('level')],
  ['empty country', 'list', { country: '' }, unprocessable('country')],
  // contract §8.4: any cursor problem, an empty one included, is 400 malformed_cursor.
  [
    'empty cursor',
    'list',
    { cursor: '' },
    { status: 400, code: 'malformed_cursor', parameter: 'cursor', reason: 'bad_format' },
  ],
  ['one-element array', 'list', { city: ['Austin'] }, unprocessable('city')],
  ['nested object', 'list', { city: { a: 'b' } }, unprocessable('city')],
  ['limit=abc', 'list', { limit: 'abc' }, unprocessable('limit')],
  ['limit=1.5', 'list', { limit: '1.5' }, unprocessable('limit')],
  ['limit=0', 'list', { limit: '0' }, unprocessable('limit', 'out_of_range')],
  ['limit=-1', 'list', { limit: '-1' }, unprocessable('limit', 'out_of_range')],
  ['limit empty', 'preview', { limit: '' }, unprocessable('limit')],
  ['remote=maybe', 'list', { remote: 'maybe' }, unprocessable('remote')],
  ['remote=TRUE', 'list', { remote: 'TRUE' }, unprocessable('remote')],
  ['remote=1', 'preview', { remote: '1' }, unprocessable('remote')],
  ['rate_min=-1', 'list', { rate_min: '-1' }, unprocessable('rate_min')],
  ['rate_min=1e3', 'list', { rate_min: '1e3' }, unprocessable('rate_min')],
  ['rate_min=.5', 'preview', { rate_min: '.5' }, unprocessable('rate_min')],
  // OpenAPI's pattern allows 308 digits before the point; 309 ones (1.1e308, a finite double) was
  // served where the schema refuses it.
  [
    'rate_min of 309 digits',
    'list',
    { rate_min: '1'.repeat(309) },
    unprocessable('rate_min', 'out_of_range'),
  ],
  [
    'rate_max of 309 digits and a fraction',
    'count',
    { rate_max: `${'0'.repeat(309)}.5` },
    unprocessable('rate_max', 'out_of_range'),
  ],
  ['rate_max=abc', 'count', { rate_max: 'abc' }, unprocessable('rate_max')],
  ['not a date', 'list', { published_after: 'yesterday' }, unprocessable('published_after')],
  [
    'impossible date',
    'list',
    { published_before: '2026-02-30' },
    unprocessable('published_before'),
  ],
  ['not a leap year', 'list', { fresh_after: '2025-02-29' }, unprocessable('fresh_after')],
  ['month 13', 'list', { first_seen_after: '2026-13-01' }, unprocessable('first_seen_after')],
  ['hour 24', 'list', { changed_since: '2026-01-01T24:00:00Z' }, unprocessable('changed_since')],
  [
    'date-time without zone',
    'list',
    { published_after: '2026-01-01T10:00:00' },
    unprocessable('published_after'),
  ],
  [
    'offset without colon',
    'list',
    { published_after: '2026-01-01T10:00:00+0200' },
    unprocessable('published_after'),
  ],
  ['epoch number', 'list', { published_after: '1767225600' }, unprocessable('published_after')],
  // page size (contract §6.6, §9.3)
  ['limit above 100', 'list', { limit: '101' }, tooLarge],
  ['preview limit above 5', 'preview', { limit: '6' }, tooLarge],
  // order: catalog order, format/value per parameter, then cross-parameter rules
  [
    'catalog order (country before limit)',
    'list',
    { limit: 'abc', country: 'ZQ' },
    invalid('country', 'unknown_value'),
  ],
  [
    'catalog order (dates first)',
    'list',
    { level: 'bogus', published_after: 'x' },
    unprocessable('published_after'),
  ],
  [
    'family before level',
    'list',
    { level: 'bogus', job_family: 'nope' },
    invalid('job_family', 'unknown_value'),
  ],
  [
    'values before cross rules',
    'list',
    { job_family: 'data', job_subfamily: 'backend', level: 'x' },
    invalid('level', 'unknown_value'),
  ],
  ['format before value in one list', 'list', { level: 'bogus,' }, unprocessable('level')],
])('%s', (_name, endpoint, query, expected) => {
  it(`${endpoint} → ${expected.status} ${expected.code} ${expected.parameter}/${expected.reason}`, () => {
    expect(summary(apiErrorOf(() => parse(endpoint, query)))).toEqual(expected);
  });
});

// Free text is at most 300 characters counted as JSON Schema's maxLength counts them
// (code points), so an emoji is one character, as the OpenAPI document's maxLength says.
it('counts the length of free text in code points', () => {
  expect(parse('list', { city: '😀'.repeat(300) }).filter.city).toBe('😀'.repeat(300));
  // Past the bound is out of range (its format is fine), as q's length is.
  expect(summary(apiErrorOf(() => parse('list', { city: '😀'.repeat(301) })))).toEqual(
    unprocessable('city', 'out_of_range'),
  );
  expect(summary(apiErrorOf(() => parse('list', { city: 'x'.repeat(301) })))).toEqual(
    unprocessable('city', 'out_of_range'),
  );
  expect(parse('list', { city: `${'x'.repeat(299)}😀` }).filter.city).toHaveLength(301);
  // The longest normalized_title a record may have can be asked for.
  expect(parse('list', { normalized_title: 'x'.repeat(300) }).filter.normalized_title).toHaveLength(
    300,
  );
});

// contract §6.14: a key as the value of a known parameter is refused as a key in the query string
// is, whatever the parameter, and never shown back (in a message or in applied_filters).
describe('a key pasted as a parameter value', () => {
  const SECRET = 'oppk_ThisLooksLikeAKeyAndMustNeverBeEchoed0123';
  it.each(['level', 'q', 'city', 'country', 'fields', 'sort', 'job_family'])(
    '%s=oppk_… → 400 invalid_filter unknown_parameter, the key not shown',
    (name) => {
      const err = apiErrorOf(() =>
        parseRestQuery('list', { [name]: `x ${SECRET}` }, { taxonomy, maxPageSize: 100 }),
      );
      expect({ status: err.status, code: err.code, details: err.details }).toEqual({
        status: 400,
        code: 'invalid_filter',
        details: { parameter: name, reason: 'unknown_parameter' },
      });
      expect(err.message).not.toContain(SECRET);
      // It says why: the parameter is known, its value holds a key.
      expect(err.message).toBe(
        `"${name}" holds an API key, which is never read from a parameter: send it in the X-API-Key header.`,
      );
    },
  );

  it('a cursor is not looked into: it stays a cursor, checked as one later', () => {
    expect(() => parse('list', { cursor: `a${SECRET}b` })).not.toThrow();
  });
});

// contract §6.4: spaces around a value are not part of it, for every kind of value alike. A text,
// vocabulary or date value was trimmed while `remote= true`, `limit= 10` and `rate_min= 5` were 422.
describe('spaces around a value', () => {
  it.each<[string, Query, Record<string, unknown>]>([
    ['boolean', { remote: ' true ' }, { remote: true }],
    ['limit', { limit: ' 10' }, { limit: 10 }],
    ['decimal', { rate_min: '5 ', rate_max: '\t80.5' }, { rate_min: 5, rate_max: 80.5 }],
    ['date', { published_after: ' 2026-10-31 ' }, { published_after: '2026-10-31T00:00:00.000Z' }],
    ['vocabulary', { level: ' senior , staff' }, { level: ['senior', 'staff'] }],
  ])('%s: trimmed', (_kind, query, expected) => {
    const parsed = parse('list', query);
    const seen: Record<string, unknown> = {};
    for (const name of Object.keys(expected)) {
      seen[name] =
        name === 'limit' ? parsed.limit : (parsed.filter as Record<string, unknown>)[name];
    }
    expect(seen).toEqual(expected);
  });

  it.each<[string, Query]>([
    ['a space inside a boolean', { remote: 'tr ue' }],
    ['a space inside a number', { limit: '1 0' }],
    ['only spaces', { rate_min: '  ' }],
  ])('%s stays 422', (_kind, query) => {
    const err = apiErrorOf(() => parse('list', query));
    expect([err.status, err.code]).toEqual([422, 'validation_error']);
  });
});

// contract §6.4: a space inside a number, a boolean or a date is a bad format; inside a code or a
// vocabulary's value the value is none of them; inside a text it is text.
describe('a space inside a value', () => {
  const ctx = { taxonomy, maxPageSize: 100 };
  it.each([
    ['limit', '1 0', 422, 'bad_format'],
    ['remote', 'tr ue', 422, 'bad_format'],
    ['rate_min', '8 0', 422, 'bad_format'],
    ['published_after', '2026-01-01 T00:00:00Z', 422, 'bad_format'],
    ['country', 'u s', 400, 'unknown_value'],
    ['level', 'sen ior', 400, 'unknown_value'],
  ])('%s=%j → %i %s', (name, value, status, reason) => {
    const err = apiErrorOf(() => parseRestQuery('list', { [name]: value }, ctx));
    expect([err.status, err.details]).toEqual([status, { parameter: name, reason }]);
  });

  it('is text in a text filter', () => {
    expect(parseRestQuery('list', { city: 'San Francisco' }, ctx).filter.city).toBe(
      'San Francisco',
    );
  });
});

// contract §4.7: a long name is cut to its first 64 characters and `…`; characters, not UTF-16
// units: a cut between an emoji's halves left a lone surrogate in details.parameter.
describe('a long unknown name, shown', () => {
  const ctx = { taxonomy, maxPageSize: 100 };
  const shown = (name: string) =>
    apiErrorOf(() => parseRestQuery('list', { [name]: '1' }, ctx)).details?.parameter ?? '';

  it('is cut after 64 characters, never between the halves of one', () => {
    expect(shown(`${'a'.repeat(63)}🚀🚀`)).toBe(`${'a'.repeat(63)}🚀…`);
    expect(shown('🚀'.repeat(70))).toBe(`${'🚀'.repeat(64)}…`);
    expect(shown('🚀'.repeat(64))).toBe('🚀'.repeat(64));
  });

  it('holds no lone surrogate', () => {
    expect(shown(`x\ud800${'b'.repeat(70)}`)).toBe(`x\ufffd${'b'.repeat(62)}…`);
  });
});

// contract §4.7: a message quotes a name JSON-quoted on one line: the characters JSON leaves raw but
// a reader takes for a line break or a control (DEL, C1, U+2028, U+2029) are escaped as C0 is.
it('an unknown name with line separators and controls is quoted on one line', () => {
  const err = apiErrorOf(() =>
    parseRestQuery('list', { 'a\u2028b\u0085c\u007fd\u2029e\nf': '1' }, { taxonomy }),
  );
  expect(err.message).toBe('Unknown parameter "a\\u2028b\\u0085c\\u007fd\\u2029e\\nf".');
  expect(err.message).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
});
