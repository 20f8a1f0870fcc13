import { FACET_DIMENSIONS } from '../../src/domain/facets';
import { facetOracle } from '../support/facet-oracle';
import { useWorld, type StartFixtureWorld } from '../support/worlds';
import { qs, type Query } from '../support/read-fixture';
import { expectError, get } from '../support/read-http';

// contract §10.2, count facets over HTTP: every dimension, alone and nested, with and without
// filters, against an oracle computed from the fixture; the tie rule; errors; free of charge.

/** Count facets against the oracle, in one world. */
export function countFacetBehaviour(start: StartFixtureWorld): void {
  const world = useWorld(start);

  async function facets(q: Query, groupBy: string, groupLimit?: number) {
    const extra: Query = {
      group_by: groupBy,
      ...(groupLimit ? { group_limit: String(groupLimit) } : {}),
    };
    const res = await get(world.baseUrl, `/v1/opportunities/count?${qs({ ...q, ...extra })}`, {
      key: world.reader.key,
    });
    expect(res.status).toBe(200);
    return res;
  }

  const FILTERS: Query[] = [{}, { country: 'US' }, { job_family: 'data', remote: 'true' }];

  describe.each([...FACET_DIMENSIONS])('group_by=%s', (dim) => {
    it.each(FILTERS.map((q) => [JSON.stringify(q), q] as const))(
      'equals the oracle with filters %s (default and small group_limit)',
      async (_label, q) => {
        for (const limit of [undefined, 2]) {
          const res = await facets(q, dim, limit);
          const { count, groups, other_count } = res.body;
          expect({ count, groups, other_count }).toEqual(facetOracle(q, [dim], limit ?? 10));
          expect(res.body.meta.applied_filters).toEqual(
            expect.not.objectContaining({ group_by: expect.anything() }),
          );
        }
      },
    );
  });

  it.each([
    ['job_family', 'level'],
    ['work_structure', 'engagement_model'],
    ['source', 'remote'],
    ['remote', 'work_structure'],
    ['country', 'currency'],
    ['job_subfamily', 'job_class'],
  ])('nests %s then %s like the oracle', async (a, b) => {
    for (const q of [{}, { liveness_status: 'live' }] as Query[]) {
      const res = await facets(q, `${a},${b}`, 3);
      const { count, groups, other_count } = res.body;
      expect({ count, groups, other_count }).toEqual(facetOracle(q, [a, b], 3));
    }
  });

  it('a bucket counts what the same filters plus that value count', async () => {
    const res = await facets({}, 'work_structure,remote', 100);
    for (const g of res.body.groups as {
      value: string;
      count: number;
      groups: { value: boolean; count: number }[];
    }[]) {
      const plain = await get(world.baseUrl, `/v1/opportunities/count?work_structure=${g.value}`, {
        key: world.reader.key,
      });
      expect(plain.body.count).toBe(g.count);
      for (const s of g.groups) {
        expect(typeof s.value).toBe('boolean');
        const both = await get(
          world.baseUrl,
          `/v1/opportunities/count?work_structure=${g.value}&remote=${s.value}`,
          { key: world.reader.key },
        );
        expect(both.body.count).toBe(s.count);
      }
    }
    // ongoing_contract counts contract_duration too (contract §10.2).
    const ongoing = res.body.groups.find((g: { value: string }) => g.value === 'ongoing_contract');
    const duration = res.body.groups.find(
      (g: { value: string }) => g.value === 'contract_duration',
    );
    expect(ongoing.count).toBeGreaterThan(duration.count);
  });

  it('orders ties by the code-unit order of the value', async () => {
    const res = await facets({}, 'level', 100);
    const groups = res.body.groups as { value: string; count: number }[];
    for (let i = 1; i < groups.length; i++) {
      const [a, b] = [groups[i - 1], groups[i]];
      if (!a || !b) continue;
      expect(a.count > b.count || (a.count === b.count && a.value < b.value)).toBe(true);
    }
  });

  it('is free: no allowance, no request id spent, usage unchanged', async () => {
    const headers = { 'X-Request-ID': 'facet-free-1' };
    const a = await get(world.baseUrl, '/v1/opportunities/count?group_by=level', {
      key: world.reader.key,
      headers,
    });
    const b = await get(world.baseUrl, '/v1/opportunities/count?group_by=level', {
      key: world.reader.key,
      headers,
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('x-service-opportunity-used')).toBe(
      a.headers.get('x-service-opportunity-used'),
    );
    expect(a.headers.get('x-service-new-opportunity-count')).toBe('0');
  });

  describe('errors', () => {
    it.each([
      ['group_by=salary', 'group_by', 'unknown_value'],
      ['group_by=level,remote,country', 'group_by', 'out_of_range'],
      ['group_by=level,level', 'group_by', 'repeated'],
      ['group_by=Level', 'group_by', 'unknown_value'],
      ['include=everything', 'include', 'unknown_value'],
      ['include_new_count=true', 'include_new_count', 'unknown_parameter'],
    ])('%s → 400 invalid_filter', async (query, parameter, reason) => {
      const res = await get(world.baseUrl, `/v1/opportunities/count?${query}`, {
        key: world.reader.key,
      });
      expectError(res, 400, 'invalid_filter', { parameter, reason });
    });

    it.each([
      'group_limit=0',
      'group_limit=101',
      'group_limit=abc',
      'group_limit=1.5',
      'group_limit=-1',
    ])('%s → 422 validation_error', async (query) => {
      const res = await get(world.baseUrl, `/v1/opportunities/count?group_by=level&${query}`, {
        key: world.reader.key,
      });
      expectError(res, 422, 'validation_error', { parameter: 'group_limit' });
    });

    it('group_by is not a list parameter', async () => {
      const res = await get(world.baseUrl, '/v1/opportunities?group_by=level', {
        key: world.reader.key,
      });
      expectError(res, 400, 'invalid_filter', { parameter: 'group_by' });
    });
  });
}
