import { Lru } from '../../src/infra/lru';

// infra/lru.ts: the one bounded cache (the auth key cache and its last-used marks use it).

it('keeps at most maxEntries, dropping the least recently set first', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1).set('b', 2).set('c', 3);
  expect(lru.size).toBe(2);
  expect(lru.get('a')).toBeUndefined();
  expect(lru.get('b')).toBe(2);
  expect(lru.get('c')).toBe(3);
});

it('a get counts as a use: the entry read survives the next eviction', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1).set('b', 2);
  lru.get('a');
  lru.set('c', 3);
  expect(lru.get('b')).toBeUndefined();
  expect(lru.get('a')).toBe(1);
});

it('a get with use: false leaves the order alone', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1).set('b', 2);
  lru.get('a', { use: false });
  lru.set('c', 3);
  expect(lru.get('a')).toBeUndefined();
});

it('setting an existing key replaces it and makes it the newest', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
  expect(lru.get('a')).toBe(10);
  expect(lru.get('b')).toBeUndefined();
});

it('refuses a bound below one', () => {
  expect(() => new Lru(0)).toThrow(RangeError);
});
