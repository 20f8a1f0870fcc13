import { Taxonomy } from '../../src/domain/taxonomy';
import { ParsedRequests } from '../../src/service/parsed-requests';
import { apiErrorOf, taxonomy } from './taxonomy-fixture';

// A repeated count's query is parsed once per process; what is handed out must
// be what parsing gives, for every request, and nobody may change it for the next one.

describe('ParsedRequests', () => {
  const ctx = { taxonomy };

  it('hands a repeated query the same parse, equal to a fresh one', () => {
    const cache = new ParsedRequests();
    const input = { from: 'rest', query: { job_family: 'data', remote: 'true' } } as const;
    const first = cache.parse('count', input, ctx);
    expect(cache.parse('count', { from: 'rest', query: { ...input.query } }, ctx)).toBe(first);
    expect(first).toEqual(new ParsedRequests().parse('count', input, ctx));
    expect(cache.size).toBe(1);
  });

  it('keeps REST and tool inputs, endpoints and page sizes apart', () => {
    const cache = new ParsedRequests();
    const rest = cache.parse('count', { from: 'rest', query: { remote: 'true' } }, ctx);
    const tool = cache.parse('count', { from: 'tool', args: { remote: true } }, ctx);
    const list = cache.parse('list', { from: 'rest', query: { remote: 'true' } }, ctx);
    const small = cache.parse(
      'list',
      { from: 'rest', query: { remote: 'true' } },
      { ...ctx, maxPageSize: 10 },
    );
    expect(new Set([rest, tool, list, small]).size).toBe(4);
    expect(cache.size).toBe(4);
  });

  it('freezes what it keeps, deeply', () => {
    const cache = new ParsedRequests();
    const parsed = cache.parse(
      'count',
      { from: 'rest', query: { job_family: 'data', group_by: 'level' } },
      ctx,
    );
    expect(Object.isFrozen(parsed)).toBe(true);
    expect(Object.isFrozen(parsed.filter)).toBe(true);
    expect(Object.isFrozen(parsed.filter.job_family)).toBe(true);
    expect(Object.isFrozen(parsed.options.groupBy)).toBe(true);
  });

  it('refuses a bad query every time and keeps nothing of it', () => {
    const cache = new ParsedRequests();
    const bad = { from: 'rest', query: { remote: 'maybe' } } as const;
    const first = apiErrorOf(() => cache.parse('count', bad, ctx));
    expect(apiErrorOf(() => cache.parse('count', bad, ctx))).toEqual(first);
    expect(cache.size).toBe(0);
  });

  it('is bounded, oldest first, and starts over with a new taxonomy', () => {
    const cache = new ParsedRequests(2);
    const q = (rate: string) => ({ from: 'rest', query: { rate_min: rate } }) as const;
    const one = cache.parse('count', q('1'), ctx);
    cache.parse('count', q('2'), ctx);
    cache.parse('count', q('3'), ctx);
    expect(cache.size).toBe(2);
    expect(cache.parse('count', q('1'), ctx)).not.toBe(one);
    const reloaded = new Taxonomy('test-2', taxonomy.nodes);
    const before = cache.parse('count', q('3'), ctx);
    expect(cache.parse('count', q('3'), { taxonomy: reloaded })).not.toBe(before);
    expect(cache.size).toBe(1);
  });
});
