import { parseRestQuery } from '../../src/domain/filters';
import type { Endpoint } from '../../src/domain/filters';
import { apiErrorOf, summary, taxonomy } from './taxonomy-fixture';

// REST query normalization: defaults and applied_filters (contract §6.13, §9.2).

type Query = Record<string, unknown>;
const parse = (endpoint: Endpoint, query: Query, maxPageSize = 100) =>
  parseRestQuery(endpoint, query, { taxonomy, maxPageSize });
const tooLarge = {
  status: 400,
  code: 'page_size_exceeded',
  parameter: 'limit',
  reason: 'out_of_range',
};

describe('REST parsing', () => {
  it('limit above the account maximum is page_size_exceeded', () => {
    expect(summary(apiErrorOf(() => parse('list', { limit: '26' }, 25)))).toEqual(tooLarge);
  });

  it('never echoes the value of an unknown parameter', () => {
    const err = apiErrorOf(() => parse('list', { api_key: 'oppk_SECRETSECRET' }));
    expect(err.message).not.toContain('SECRET');
    expect(err.details).toEqual({ parameter: 'api_key', reason: 'unknown_parameter' });
  });

  it('applies defaults: 25 for list, 5 for preview, lower account maximum, none for count', () => {
    const options = { groupLimit: 10, includeNewCount: false };
    expect(parse('list', {})).toEqual({ filter: {}, appliedFilters: {}, limit: 25, options });
    expect(parse('preview', {})).toEqual({ filter: {}, appliedFilters: {}, limit: 5, options });
    expect(parse('list', {}, 10).limit).toBe(10);
    expect(parse('count', {}).limit).toBe(0);
    expect(parseRestQuery('list', { limit: '100' }, { taxonomy }).limit).toBe(100);
  });

  it('normalizes every kind of value for applied_filters', () => {
    const parsed = parse('list', {
      published_after: '2026-01-01',
      published_before: '2026-01-31T10:00:00+02:00',
      fresh_after: '2026-01-15T09:30:00.123456Z',
      job_domain: 'technology',
      job_family: 'data,software_engineering,data',
      job_subfamily: 'data_engineering',
      job_class: 'backend_engineer',
      level: 'staff, senior,staff',
      engagement_model: 'c2c',
      remote: 'false',
      country: 'us',
      city: 'Austin',
      region: 'CA',
      rate_min: '80.5',
      rate_max: '120',
      pay_basis: 'hourly',
      work_structure: 'ongoing_contract',
      first_seen_after: '2024-02-29',
      cursor: 'opaque.token.here',
      limit: '10',
    });
    expect(parsed).toEqual({
      filter: parsed.appliedFilters,
      cursor: 'opaque.token.here',
      limit: 10,
      options: { groupLimit: 10, includeNewCount: false },
      appliedFilters: {
        published_after: '2026-01-01T00:00:00.000Z',
        published_before: '2026-01-31T08:00:00.000Z',
        fresh_after: '2026-01-15T09:30:00.124Z',
        job_domain: 'technology',
        job_family: ['data', 'software_engineering'],
        job_subfamily: ['data_engineering'],
        job_class: ['backend_engineer'],
        level: ['staff', 'senior'],
        engagement_model: 'c2c',
        remote: false,
        country: 'US',
        city: 'Austin',
        region: 'CA',
        rate_min: 80.5,
        rate_max: 120,
        pay_basis: ['hourly'],
        work_structure: ['ongoing_contract'],
        first_seen_after: '2024-02-29T00:00:00.000Z',
      },
    });
  });

  it('keeps list shapes in the preview, where each takes one value', () => {
    const parsed = parse('preview', {
      job_family: 'data',
      level: 'senior',
      remote: 'true',
      limit: '3',
    });
    expect(parsed.appliedFilters).toEqual({
      job_family: ['data'],
      level: ['senior'],
      remote: true,
    });
    expect(parsed.limit).toBe(3);
  });

  it('accepts a subfamily of a given family, and subfamilies without job_family', () => {
    expect(parse('list', { job_family: 'data', job_subfamily: 'analytics' }).filter).toEqual({
      job_family: ['data'],
      job_subfamily: ['analytics'],
    });
    expect(parse('count', { job_subfamily: 'backend,analytics' }).filter).toEqual({
      job_subfamily: ['backend', 'analytics'],
    });
  });

  it('keeps a comma inside a cursor, which is opaque', () => {
    expect(parse('list', { cursor: 'a,b' }).cursor).toBe('a,b');
  });
});
