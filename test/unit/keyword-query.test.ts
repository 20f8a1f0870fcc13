import fc from 'fast-check';
import { ApiError } from '../../src/domain/errors';
import { filterDigest, parseRestQuery, parseToolArgs } from '../../src/domain/filters';
import {
  MAX_QUERY_LENGTH,
  normalizeQuery,
  parseKeywordQuery,
} from '../../src/domain/filters/keyword-query';
import {
  MAX_SCORED_WORDS,
  SEARCH_FIELD,
  excludedClauses,
  requiredClauses,
  scoringClauses,
} from '../../src/search/keyword-clauses';
import { recordNumbersClause } from '../../src/search/exclusions';
import { analyze, stem } from '../../src/search/memory-text';
import {
  RELEVANCE_SORT,
  buildCountBody,
  buildListSearchBody,
  startPosition,
} from '../../src/search/query-builder';
import { synonymMap, synonymRules } from '../../src/search/synonyms';
import { taxonomy } from './taxonomy-fixture';

// contract §7.3: the q syntax, its normalization, and the engine clauses it becomes.

const word = (text: string) => ({ phrase: false, text });
const phrase = (text: string) => ({ phrase: true, text });

describe('parseKeywordQuery', () => {
  it.each([
    ['senior golang k8s', { words: ['senior', 'golang', 'k8s'] }],
    ['"data engineer" remote', { words: ['remote'], groups: [[phrase('data engineer')]] }],
    ['engineer -data', { words: ['engineer'], excludedWords: ['data'] }],
    ['engineer -"data platform"', { words: ['engineer'], excludedPhrases: ['data platform'] }],
    ['rust OR go', { groups: [[word('rust'), word('go')]] }],
    ['a b OR c d', { words: ['a', 'd'], groups: [[word('b'), word('c')]] }],
    ['"a b" OR c OR "d e"', { groups: [[phrase('a b'), word('c'), phrase('d e')]] }],
    ['rust or go', { words: ['rust', 'or', 'go'] }],
    ['OR', { words: ['OR'] }],
    ['OR OR', { words: ['OR', 'OR'] }],
    ['a OR', { words: ['a', 'OR'] }],
    ['a OR -b', { words: ['a', 'OR'], excludedWords: ['b'] }],
    ['a OR OR b', { words: ['a', 'OR', 'OR', 'b'] }],
    ['-', { words: ['-'] }],
    ['--', { excludedWords: ['-'] }],
    ['- a', { words: ['-', 'a'] }],
    ['c++ node.js a+b|c', { words: ['c++', 'node.js', 'a+b|c'] }],
    ['"unclosed phrase', { groups: [[phrase('unclosed phrase')]] }],
    ['say"what" x', { words: ['say"what"', 'x'] }],
    ['-"', { excludedPhrases: [''] }],
    [
      'only -exclusions -"of things"',
      { words: ['only'], excludedWords: ['exclusions'], excludedPhrases: ['of things'] },
    ],
  ])('%s', (q, want) => {
    expect(parseKeywordQuery(q)).toEqual({
      words: [],
      groups: [],
      excludedWords: [],
      excludedPhrases: [],
      ...want,
    });
  });

  it('never throws and stays bounded, whatever the text', () => {
    const operators = fc.constantFrom('OR', '-', '"', '-"', ' ', 'or', 'a', '+', '|', '\\', 'é');
    const text = fc.oneof(
      fc.string({ maxLength: MAX_QUERY_LENGTH, unit: 'grapheme' }),
      fc.array(operators, { maxLength: 100 }).map((p) => p.join('')),
      fc.array(operators, { maxLength: 100 }).map((p) => p.join(' ')),
    );
    fc.assert(
      fc.property(text, (q) => {
        const parsed = parseKeywordQuery(q);
        const terms =
          parsed.words.length +
          parsed.groups.flat().length +
          parsed.excludedWords.length +
          parsed.excludedPhrases.length;
        expect(terms).toBeLessThanOrEqual([...q].length);
        const body = JSON.stringify([
          requiredClauses(parsed),
          excludedClauses(parsed),
          scoringClauses(parsed),
        ]);
        // The text only ever appears as a query value: no query_string, no simple_query_string.
        expect(body).not.toMatch(/query_string/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeQuery (1..200 characters after trimming, else 400 invalid_filter on q)', () => {
  const reject = (raw: string) => {
    try {
      normalizeQuery(raw);
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'invalid_filter', details: { parameter: 'q' } });
      return;
    }
    throw new Error(`accepted ${JSON.stringify(raw)}`);
  };

  it('trims and accepts 1 to 200', () => {
    expect(normalizeQuery('  rust ')).toBe('rust');
    expect(normalizeQuery(` ${'a'.repeat(200)}\t`)).toBe('a'.repeat(200));
    expect(normalizeQuery('🚀'.repeat(200))).toBe('🚀'.repeat(200)); // code points, not units
  });

  it.each([[''], ['   '], ['\n\t'], ['a'.repeat(201)], ['é'.repeat(201)]])('rejects %j', (raw) =>
    reject(raw),
  );

  it('through both adapters: commas are text, empty is 400 (not 422)', () => {
    const ctx = { taxonomy };
    expect(parseRestQuery('list', { q: 'a, b' }, ctx).filter.q).toBe('a, b');
    expect(parseToolArgs('count', { q: 'a, b' }, ctx).filter.q).toBe('a, b');
    expect(() => parseRestQuery('count', { q: '' }, ctx)).toThrow(
      expect.objectContaining({
        code: 'invalid_filter',
        details: expect.objectContaining({ parameter: 'q' }),
      }),
    );
    expect(() => parseToolArgs('list', { q: ' ' }, ctx)).toThrow(
      expect.objectContaining({ code: 'invalid_filter' }),
    );
  });

  it('sort=relevance needs q; count takes no sort; preview takes both', () => {
    const ctx = { taxonomy };
    expect(() => parseRestQuery('list', { sort: 'relevance' }, ctx)).toThrow(
      expect.objectContaining({
        code: 'invalid_filter',
        details: expect.objectContaining({ parameter: 'sort' }),
      }),
    );
    expect(() => parseRestQuery('count', { q: 'a', sort: 'relevance' }, ctx)).toThrow(
      expect.objectContaining({
        code: 'invalid_filter',
        details: expect.objectContaining({ parameter: 'sort' }),
      }),
    );
    expect(parseRestQuery('preview', { q: 'a', sort: 'relevance' }, ctx).filter).toEqual({
      q: 'a',
      sort: 'relevance',
    });
  });

  it('the cursor digest binds q and sort; sort=freshness is the default order', () => {
    expect(filterDigest({ q: 'a' })).not.toBe(filterDigest({ q: 'b' }));
    expect(filterDigest({ q: 'a' })).not.toBe(filterDigest({ q: 'a', sort: 'relevance' }));
    expect(filterDigest({ q: 'a' })).toBe(filterDigest({ q: 'a', sort: 'freshness' }));
  });
});

describe('engine clauses', () => {
  it('words ANDed on the copy field, synonyms never turned into phrases', () => {
    expect(requiredClauses(parseKeywordQuery('senior golang'))).toEqual([
      {
        match: {
          [SEARCH_FIELD]: {
            query: 'senior golang',
            operator: 'and',
            auto_generate_synonyms_phrase_query: false,
          },
        },
      },
    ]);
  });

  it('an OR group is a should with one match required; each exclusion is a clause of its own', () => {
    const q = parseKeywordQuery('"data engineer" OR rust -intern -junior -"team lead"');
    expect(requiredClauses(q)).toEqual([
      {
        bool: {
          should: [
            { match_phrase: { [SEARCH_FIELD]: { query: 'data engineer' } } },
            {
              match: {
                [SEARCH_FIELD]: {
                  query: 'rust',
                  operator: 'and',
                  auto_generate_synonyms_phrase_query: false,
                },
              },
            },
          ],
          minimum_should_match: 1,
        },
      },
    ]);
    // Any one excludes; each is analyzed alone, so two words never form a multi-word synonym.
    const excluded = (query: string) => ({
      match: {
        [SEARCH_FIELD]: { query, operator: 'and', auto_generate_synonyms_phrase_query: false },
      },
    });
    expect(excludedClauses(q)).toEqual([
      excluded('intern'),
      excluded('junior'),
      { match_phrase: { [SEARCH_FIELD]: { query: 'team lead' } } },
    ]);
  });

  it('scores titles above specializations above organizations and labels', () => {
    const [clause] = scoringClauses(parseKeywordQuery('rust'));
    expect(clause).toMatchObject({
      multi_match: {
        fields: [
          'title^3',
          'normalized_title.text^3',
          'specializations.text^2',
          'organization_names^1',
          'taxonomy_labels^1',
        ],
      },
    });
  });

  it('bounds the scored words', () => {
    const many = Array.from({ length: 90 }, (_, i) => `w${i}`).join(' ');
    const [clause] = scoringClauses(parseKeywordQuery(many));
    const query = (clause as { multi_match: { query: string } }).multi_match.query;
    expect(query.split(' ')).toHaveLength(MAX_SCORED_WORDS);
  });

  it('a query of exclusions only is every record but the excluded', () => {
    const body = buildCountBody({ q: '-rust' }, taxonomy);
    expect(body.query).toEqual({
      bool: { filter: [], must_not: excludedClauses(parseKeywordQuery('-rust')) },
    });
  });

  it('q ANDs with the filters; relevance scores and sorts by score, then freshness', () => {
    const freshness = buildListSearchBody({ q: 'rust', level: ['senior'] }, taxonomy, { size: 3 });
    expect(freshness.query).toEqual({
      bool: {
        filter: [{ terms: { level: ['senior'] } }, ...requiredClauses(parseKeywordQuery('rust'))],
      },
    });
    const relevance = buildListSearchBody({ q: 'rust', sort: 'relevance' }, taxonomy, {
      size: 3,
      searchAfter: [1.2345678, 1_790_000_000_000, 'id'],
      excluded: [recordNumbersClause('OjAAAAEAAAAAAAIAEAAAAG8A3gBNAQ==')],
    });
    expect(relevance.sort).toEqual(RELEVANCE_SORT);
    expect(relevance.search_after).toEqual([1.2345678, 1_790_000_000_000, 'id']);
    expect(relevance.query).toMatchObject({
      bool: {
        should: scoringClauses(parseKeywordQuery('rust')),
        must_not: [
          { terms: { record_num: ['OjAAAAEAAAAAAAIAEAAAAG8A3gBNAQ=='], value_type: 'bitmap' } },
        ],
      },
    });
    expect(startPosition('relevance')).toHaveLength(3);
    expect(startPosition(undefined)).toHaveLength(2);
  });
});

describe('the synonyms file and the in-memory analysis', () => {
  it('reads Solr rules: equivalences both ways, explicit mappings one way', () => {
    const rules = synonymRules(
      '# comment\n\njs, javascript\n  swe , software engineer \nfoo => bar\n',
    );
    expect(rules).toEqual(['js, javascript', 'swe , software engineer', 'foo => bar']);
    const map = synonymMap(rules);
    expect(map.get('js')).toEqual(['js', 'javascript']);
    expect(map.get('software engineer')?.sort()).toEqual(['software engineer', 'swe']);
    expect(map.get('foo')).toEqual(['bar']);
    expect(map.get('bar')).toBeUndefined();
  });

  it('folds, lower-cases, drops possessives and plurals', () => {
    expect(analyze("Développeur SÉNIOR, the Contractor's Node.js C++ developers")).toEqual([
      'developpeur',
      'senior',
      'the',
      'contractor',
      'node.j', // stemmed like any word; the query side gets the same
      'cplusplus', // the cplusplus character filter (mapping 8)
      'developer',
    ]);
    // C# and F# too, but not inside a longer word; C++17 keeps its version as a token.
    expect(analyze('C#/.NET, f# abc++ C++17 c++c')).toEqual([
      'csharp',
      'net',
      'fsharp',
      'abc',
      'cplusplus',
      '17',
      'c',
      'c',
    ]);
    // Words of four letters or fewer keep their s (the engine's short_words marker).
    expect(['companies', 'classes', 'bus', 'games', 'ios', 'news'].map(stem)).toEqual([
      'company',
      'classe',
      'bus',
      'game',
      'ios',
      'news',
    ]);
  });
});
