import { parseRestQuery } from '../../src/domain/filters';
import type { Filter } from '../../src/domain/filters';
import {
  LIST_SORT,
  buildCountBody,
  buildFilterQuery,
  buildListSearchBody,
} from '../../src/search/query-builder';
import { taxonomy } from './taxonomy-fixture';

// Filter semantics of contract §6 against the fields of index-mappings/opportunities.json.

const clauses = (filter: Filter) => {
  const q = buildFilterQuery(filter, taxonomy);
  if (!('bool' in q)) throw new Error('expected a bool query');
  return q.bool.filter;
};
const fromQuery = (query: Record<string, string>) =>
  parseRestQuery('list', query, { taxonomy, maxPageSize: 100 }).filter;

describe('buildFilterQuery', () => {
  it('is match_all without filters', () => {
    expect(buildFilterQuery({}, taxonomy)).toEqual({ match_all: {} });
  });

  it('narrows only the subfamily’s own family (contract §6.7 example)', () => {
    const filter = fromQuery({
      job_family: 'data,software_engineering',
      job_subfamily: 'data_engineering',
    });
    expect(buildFilterQuery(filter, taxonomy)).toEqual({
      bool: {
        filter: [{ terms: { taxonomy_ancestors: ['data_engineering', 'software_engineering'] } }],
      },
    });
  });

  it('matches several subfamilies of one family, and subfamilies alone', () => {
    expect(
      clauses({ job_family: ['data'], job_subfamily: ['analytics', 'data_engineering'] }),
    ).toEqual([{ terms: { taxonomy_ancestors: ['analytics', 'data_engineering'] } }]);
    expect(clauses({ job_subfamily: ['backend', 'analytics'] })).toEqual([
      { terms: { taxonomy_ancestors: ['backend', 'analytics'] } },
    ]);
  });

  it('ANDs domain, families and exact classes', () => {
    expect(
      clauses({ job_domain: 'technology', job_family: ['data'], job_class: ['backend_engineer'] }),
    ).toEqual([
      { term: { taxonomy_ancestors: 'technology' } },
      { terms: { taxonomy_ancestors: ['data'] } },
      { terms: { job_class: ['backend_engineer'] } },
    ]);
  });

  it('expands ongoing_contract to contract_duration', () => {
    expect(clauses({ work_structure: ['ongoing_contract', 'fixed_project'] })).toEqual([
      { terms: { work_structure: ['ongoing_contract', 'contract_duration', 'fixed_project'] } },
    ]);
    expect(clauses({ work_structure: ['contract_duration', 'ongoing_contract'] })).toEqual([
      { terms: { work_structure: ['contract_duration', 'ongoing_contract'] } },
    ]);
  });

  it('compares rate_min with the upper bound and rate_max with the lower bound', () => {
    expect(clauses({ rate_min: 80, rate_max: 120.5 })).toEqual([
      { range: { rate_high: { gte: 80 } } },
      { range: { rate_low: { lte: 120.5 } } },
    ]);
  });

  it('matches remote=false only on an explicit false', () => {
    expect(clauses({ remote: false })).toEqual([{ term: { remote: false } }]);
    expect(clauses({ remote: true })).toEqual([{ term: { remote: true } }]);
  });

  it('puts inclusive date bounds on the right fields', () => {
    expect(fromQuery({ fresh_after: '2026-01-01' })).toEqual({
      fresh_after: '2026-01-01T00:00:00.000Z',
    });
    expect(
      clauses({
        published_after: '2026-01-01T00:00:00.000Z',
        published_before: '2026-02-01T00:00:00.000Z',
        fresh_after: '2026-01-02T00:00:00.000Z',
        first_seen_after: '2026-01-03T00:00:00.000Z',
        changed_since: '2026-01-04T00:00:00.000Z',
      }),
    ).toEqual([
      { range: { published_at: { gte: '2026-01-01T00:00:00.000Z' } } },
      { range: { published_at: { lte: '2026-02-01T00:00:00.000Z' } } },
      { range: { freshness: { gte: '2026-01-02T00:00:00.000Z' } } },
      { range: { first_seen: { gte: '2026-01-03T00:00:00.000Z' } } },
      { range: { changed_at: { gte: '2026-01-04T00:00:00.000Z' } } },
    ]);
  });

  it('maps the keyword filters to their fields', () => {
    expect(
      clauses({
        normalized_title: 'Data Engineer',
        level: ['senior', 'staff'],
        management_track: 'people_manager',
        specializations: 'Spark',
        engagement_model: 'c2c',
        commercial_eligibility: 'eligible',
        actionability: 'actionable',
        country: 'US',
        city: 'Austin',
        state: 'TX',
        region: 'California',
        currency: 'USD',
        pay_basis: ['hourly'],
        source: 'Greenhouse',
        liveness_status: 'live',
      }),
    ).toEqual([
      { term: { normalized_title: 'data engineer' } },
      { terms: { level: ['senior', 'staff'] } },
      { term: { management_track: 'people_manager' } },
      { term: { specializations: 'spark' } },
      { term: { engagement_models: 'c2c' } },
      { term: { commercial_eligibility: 'eligible' } },
      { term: { actionability: 'actionable' } },
      { term: { country: 'us' } },
      { term: { city: 'austin' } },
      { term: { region_terms: 'tx' } },
      { term: { region_terms: 'california' } },
      { term: { currency: 'usd' } },
      { terms: { pay_basis: ['hourly'] } },
      { term: { sources: 'greenhouse' } },
      { term: { liveness_status: 'live' } },
    ]);
  });

  it('adds the live-only constraint of the preview', () => {
    expect(buildFilterQuery({}, taxonomy, { liveOnly: true })).toEqual({
      bool: { filter: [{ term: { liveness_status: 'live' } }] },
    });
  });
});

describe('search bodies', () => {
  it('builds a keyset page without totals', () => {
    expect(
      buildListSearchBody({ remote: true }, taxonomy, {
        size: 26,
        searchAfter: [1767225600000, 'id-1'],
      }),
    ).toEqual({
      query: { bool: { filter: [{ term: { remote: true } }] } },
      sort: [{ freshness: 'desc' }, { id: 'asc' }],
      size: 26,
      track_total_hits: false,
      _source: true,
      search_after: [1767225600000, 'id-1'],
    });
    expect(buildListSearchBody({}, taxonomy, { size: 5 })).not.toHaveProperty('search_after');
    expect(LIST_SORT).toEqual([{ freshness: 'desc' }, { id: 'asc' }]);
  });

  it('builds a count body', () => {
    expect(buildCountBody({ level: ['senior'] }, taxonomy)).toEqual({
      query: { bool: { filter: [{ terms: { level: ['senior'] } }] } },
    });
  });
});
