import { DeliveredCache, SORTED_BLOCK } from '../../src/billing/delivered-cache';
import { idChunks, MAX_TERMS_PER_CLAUSE } from '../../src/search/exclusions';

// The held delivered ids of new_count / unseen_only (decisions 11): a set per account and period,
// kept block-sorted for the search engine's terms clauses, bounded over all accounts.

const period = new Date('2026-11-01T00:00:00Z');
const hex = (n: number) => n.toString(16).padStart(8, '0');

it('adds each id once and keeps every block sorted', () => {
  const cache = new DeliveredCache();
  const first = Array.from({ length: 10 }, (_, i) => hex(1000 - i));
  cache.extend('a', period, first, new Date(1));
  const entry = cache.extend('a', period, [hex(5), hex(1000), hex(3)], new Date(2));
  expect(entry.ids).toHaveLength(12);
  expect(entry.ids).toEqual([...entry.ids].sort());
  expect(entry.newest).toEqual(new Date(2));
  expect(cache.get('a', new Date('2026-12-01T00:00:00Z'))).toBeUndefined();
});

it('sorts only within blocks of the terms clause size, so chunks need no sorting', () => {
  expect(SORTED_BLOCK).toBe(MAX_TERMS_PER_CLAUSE);
  const cache = new DeliveredCache(1_000_000);
  const ids = Array.from({ length: SORTED_BLOCK + 5 }, (_, i) => hex(SORTED_BLOCK * 2 - i));
  const entry = cache.extend('a', period, ids, null);
  const chunks = idChunks(entry.ids).map((c) => (c as { terms: { id: string[] } }).terms.id);
  expect(chunks.map((c) => c.length)).toEqual([SORTED_BLOCK, 5]);
  for (const c of chunks) expect(c).toEqual([...c].sort());
  expect(new Set(chunks.flat())).toEqual(new Set(ids));
});

it('replaces an entry on a full reread, and evicts the least recently used accounts past the bound', () => {
  const cache = new DeliveredCache(5);
  cache.extend('a', period, ['1', '2', '3'], null);
  expect(cache.extend('a', period, ['9'], null, true).ids).toEqual(['9']);
  cache.extend('b', period, ['4', '5'], null);
  cache.get('a', period);
  cache.extend('c', period, ['6', '7', '8'], null);
  expect(cache.get('b', period)).toBeUndefined();
  expect(cache.get('a', period)?.ids).toEqual(['9']);
  expect(cache.get('c', period)?.ids).toEqual(['6', '7', '8']);
});

describe('per-account bound (decisions 12)', () => {
  it('never holds one account past the total, even the account it extends', () => {
    const cache = new DeliveredCache(5, 5);
    cache.extend('a', period, ['1', '2'], null);
    const big = cache.extend('b', period, ['3', '4', '5', '6', '7', '8'], null, true);
    // The request that read them still gets them all...
    expect(big.ids).toHaveLength(6);
    // ...but the process does not keep them.
    expect(cache.get('b', period)).toBeUndefined();
    expect(cache.size).toBeLessThanOrEqual(5);
    expect(cache.get('a', period)?.ids).toEqual(['1', '2']);
  });

  it('drops an account whose held set grows past its own bound, and keeps the others', () => {
    const cache = new DeliveredCache(10, 3);
    cache.extend('a', period, ['1', '2'], null);
    cache.extend('b', period, ['x', 'y', 'z'], null);
    expect(cache.extend('b', period, ['w'], null).ids).toEqual(['w', 'x', 'y', 'z']);
    expect(cache.get('b', period)).toBeUndefined();
    expect(cache.get('a', period)?.ids).toEqual(['1', '2']);
    expect(cache.size).toBe(2);
    // Read again from the store next time: a full reread starts afresh.
    expect(cache.extend('b', period, ['x', 'y'], null, true).ids).toEqual(['x', 'y']);
    expect(cache.size).toBe(4);
  });

  it('bounds a single large account by the total when no per-account bound is lower', () => {
    const cache = new DeliveredCache(4);
    cache.extend('a', period, ['1', '2', '3', '4', '5'], null, true);
    expect(cache.size).toBe(0);
    expect(cache.get('a', period)).toBeUndefined();
  });
});
