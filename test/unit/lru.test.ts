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

describe('with weights', () => {
  const byLength = () => new Lru<string, string>(10, (v) => v.length);

  it('bounds the total weight, dropping the least recently used first', () => {
    const lru = byLength();
    lru.set('a', 'xxxx').set('b', 'xxxx');
    expect(lru.weight).toBe(8);
    lru.set('c', 'xxxx');
    expect(lru.has('a')).toBe(false);
    expect(lru.weight).toBe(8);
  });

  it('weighs a value again when it is set again', () => {
    const lru = byLength();
    lru.set('a', 'x').set('a', 'xxxxxx');
    expect(lru.weight).toBe(6);
    lru.delete('a');
    expect(lru.weight).toBe(0);
  });

  it('never keeps a value heavier than the whole bound, nor what its key held', () => {
    const lru = byLength();
    lru.set('a', 'xx').set('b', 'xx');
    lru.set('a', 'x'.repeat(11));
    expect(lru.has('a')).toBe(false);
    expect(lru.has('b')).toBe(true);
    expect(lru.weight).toBe(2);
  });
});
