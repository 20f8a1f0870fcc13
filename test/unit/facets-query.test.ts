import { FACET_DIMENSIONS } from '../../src/domain/facets';
import { Taxonomy } from '../../src/domain/taxonomy';
import { idChunks, excludingIds } from '../../src/search/exclusions';
import {
  OPEN_DIMENSION_SIZE,
  compareBuckets,
  countsAggregation,
  dimensionSpec,
  notInBuckets,
  readBuckets,
  topBuckets,
} from '../../src/search/facets';
import taxonomyJson from '../../src/domain/taxonomy/occupations.v1.json';
import type { TaxonomyNode } from '../../src/domain/taxonomy';

// contract §10.2: the aggregation for each dimension, bucket values and order, the ongoing_contract
// merge, other_count clauses, and the id chunks under index.max_terms_count.

const taxonomy = new Taxonomy('v1', taxonomyJson.nodes as TaxonomyNode[]);

describe('dimensions', () => {
  it('every dimension has a spec whose clause is the filter clause of its value', () => {
    for (const dim of FACET_DIMENSIONS) expect(dimensionSpec(dim, taxonomy).dim).toBe(dim);
    expect(dimensionSpec('job_family', taxonomy).clause('data')).toEqual({
      term: { taxonomy_ancestors: 'data' },
    });
    expect(dimensionSpec('job_class', taxonomy).clause('data_engineer')).toEqual({
      term: { job_class: 'data_engineer' },
    });
    expect(dimensionSpec('work_structure', taxonomy).clause('ongoing_contract')).toEqual({
      terms: { work_structure: ['ongoing_contract', 'contract_duration'] },
    });
    expect(dimensionSpec('country', taxonomy).clause('US')).toEqual({ term: { country: 'us' } });
    expect(dimensionSpec('remote', taxonomy).clause(false)).toEqual({ term: { remote: false } });
  });

  it('taxonomy dimensions count one level of the ancestors, all of its ids', () => {
    const agg = countsAggregation(dimensionSpec('job_family', taxonomy)) as {
      terms: { field: string; include: string[]; size: number };
    };
    expect(agg.terms.field).toBe('taxonomy_ancestors');
    expect(agg.terms.include).toContain('data');
    expect(agg.terms.include).not.toContain('data_engineering');
    expect(agg.terms.size).toBe(agg.terms.include.length);
  });

  it('open dimensions ask for every value (exact on any number of shards)', () => {
    expect(countsAggregation(dimensionSpec('source', taxonomy))).toEqual({
      terms: {
        field: 'sources',
        size: OPEN_DIMENSION_SIZE,
        order: [{ _count: 'desc' }, { _key: 'asc' }],
      },
    });
  });
});

describe('buckets', () => {
  it('reads remote buckets as booleans and countries upper-case', () => {
    const remote = dimensionSpec('remote', taxonomy);
    expect(
      readBuckets(remote, {
        buckets: [
          { key: 1, key_as_string: 'true', doc_count: 4 },
          { key: 0, key_as_string: 'false', doc_count: 2 },
        ],
      }),
    ).toEqual([
      { value: true, count: 4 },
      { value: false, count: 2 },
    ]);
    expect(
      readBuckets(dimensionSpec('country', taxonomy), { buckets: [{ key: 'us', doc_count: 3 }] }),
    ).toEqual([{ value: 'US', count: 3 }]);
  });

  it('ongoing_contract also counts contract_duration', () => {
    const ws = dimensionSpec('work_structure', taxonomy);
    const buckets = readBuckets(ws, {
      buckets: [
        { key: 'contract_duration', doc_count: 5 },
        { key: 'fixed_project', doc_count: 4 },
        { key: 'ongoing_contract', doc_count: 2 },
      ],
    });
    expect(topBuckets(buckets, 10)).toEqual([
      { value: 'ongoing_contract', count: 7 },
      { value: 'contract_duration', count: 5 },
      { value: 'fixed_project', count: 4 },
    ]);
    expect(readBuckets(ws, { buckets: [{ key: 'contract_duration', doc_count: 1 }] })).toEqual([
      { value: 'contract_duration', count: 1 },
      { value: 'ongoing_contract', count: 1 },
    ]);
  });

  it('orders by count desc, then the code-unit order of String(value), and cuts at the limit', () => {
    const buckets = [
      { value: 'b', count: 2 },
      { value: true, count: 2 },
      { value: 'B', count: 2 },
      { value: 'a', count: 3 },
      { value: false, count: 2 },
      { value: 'z', count: 0 },
    ];
    expect(topBuckets(buckets, 4).map((b) => b.value)).toEqual(['a', 'B', 'b', false]);
    expect(compareBuckets({ value: 'x', count: 1 }, { value: 'x', count: 1 })).toBe(0);
  });

  it('other_count excludes every returned bucket, missing values stay in', () => {
    expect(notInBuckets(dimensionSpec('remote', taxonomy), [true, false])).toEqual({
      bool: { must_not: [{ term: { remote: true } }, { term: { remote: false } }] },
    });
  });
});

describe('id exclusion', () => {
  it('splits ids into terms clauses of at most the chunk size, none lost', () => {
    const ids = Array.from({ length: 7 }, (_, i) => `id${i}`);
    expect(idChunks(ids, 3)).toEqual([
      { terms: { id: ['id0', 'id1', 'id2'] } },
      { terms: { id: ['id3', 'id4', 'id5'] } },
      { terms: { id: ['id6'] } },
    ]);
    expect(idChunks(Array.from({ length: 65_537 }, (_, i) => String(i))).length).toBe(2);
  });

  it('keeps the filters and adds must_not; no ids leave the query as it is', () => {
    const query = { bool: { filter: [{ term: { level: 'senior' } }] } };
    expect(excludingIds(query, [])).toBe(query);
    expect(excludingIds({ match_all: {} }, ['x'])).toEqual({
      bool: { filter: [], must_not: [{ terms: { id: ['x'] } }] },
    });
    expect(excludingIds(query, ['x'])).toEqual({
      bool: { filter: [{ term: { level: 'senior' } }], must_not: [{ terms: { id: ['x'] } }] },
    });
  });
});
