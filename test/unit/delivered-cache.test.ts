import fc from 'fast-check';
import {
  DeliveredCache,
  MAX_RECENT_NUMBERS,
  entrySize,
  numbersOf,
} from '../../src/billing/delivered-cache';
import { RoaringSet } from '../../src/infra/roaring';

// The held deliveries of new_count / unseen_only (contract §10.3, §11.1): a set of record numbers
// (and ids without a record) per account and period, bounded over all accounts.

const period = new Date('2026-11-01T00:00:00Z');
const read = (nums: number[], unmatched: string[] = [], newest: string | null = null) => ({
  nums,
  unmatched,
  newest,
});
const numbers = (set: RoaringSet | undefined) => set && decodeSmall(set.serialize());
/** Values of a serialization with array containers only (the sets here are small). */
function decodeSmall(bytes: Buffer): number[] {
  const n = bytes.readUInt32LE(4);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = bytes.readUInt16LE(8 + 4 * i);
    const cardinality = bytes.readUInt16LE(10 + 4 * i) + 1;
    const at = bytes.readUInt32LE(8 + 4 * n + 4 * i);
    for (let j = 0; j < cardinality; j++) out.push(key * 65536 + bytes.readUInt16LE(at + 2 * j));
  }
  return out;
}

it('adds each delivery once, numbers and ids without a record alike', () => {
  const cache = new DeliveredCache();
  cache.extend('a', period, read([30, 10, 20], ['gone'], '2026-11-02T10:00:00.000002Z'));
  // A refresh overlaps what is held (REFRESH_OVERLAP_MS): nothing is counted twice.
  const later = '2026-11-02T10:00:00.000010Z';
  const entry = cache.extend('a', period, read([20, 40, 70_000], ['gone', 'other'], later));
  expect(entrySize(entry)).toBe(7);
  expect(numbers(entry.nums)).toEqual([10, 20, 30, 40, 70_000]);
  expect([...entry.unmatched]).toEqual(['gone', 'other']);
  expect(entry.newest).toBe(later);
  // An older read does not move it back.
  expect(cache.extend('a', period, read([], [], '2026-11-02T09:59:59.999999Z')).newest).toBe(later);
  expect(cache.size).toBe(7);
  expect(cache.get('a', new Date('2026-12-01T00:00:00Z'))).toBeUndefined();
});

it('replaces an entry on a full reread, and evicts the least recently used accounts past the bound', () => {
  const cache = new DeliveredCache(5);
  cache.extend('a', period, read([1, 2, 3]));
  expect(numbers(cache.extend('a', period, read([9]), true).nums)).toEqual([9]);
  cache.extend('b', period, read([4, 5]));
  cache.get('a', period);
  cache.extend('c', period, read([6, 7, 8]));
  expect(cache.get('b', period)).toBeUndefined();
  expect(numbers(cache.get('a', period)?.nums)).toEqual([9]);
  expect(numbers(cache.get('c', period)?.nums)).toEqual([6, 7, 8]);
  expect(cache.size).toBe(4);
});

describe('per-account bound', () => {
  it('never holds one account past the total, even the account it extends', () => {
    const cache = new DeliveredCache(5, 5);
    cache.extend('a', period, read([1, 2]));
    const big = cache.extend('b', period, read([3, 4, 5, 6, 7], ['x']), true);
    // The request that read them still gets them all...
    expect(entrySize(big)).toBe(6);
    // ...but the process does not keep them.
    expect(cache.get('b', period)).toBeUndefined();
    expect(cache.size).toBeLessThanOrEqual(5);
    expect(numbers(cache.get('a', period)?.nums)).toEqual([1, 2]);
  });

  it('drops an account whose held set grows past its own bound, and keeps the others', () => {
    const cache = new DeliveredCache(10, 3);
    cache.extend('a', period, read([1, 2]));
    cache.extend('b', period, read([7, 8, 9]));
    expect(numbers(cache.extend('b', period, read([6])).nums)).toEqual([6, 7, 8, 9]);
    expect(cache.get('b', period)).toBeUndefined();
    expect(numbers(cache.get('a', period)?.nums)).toEqual([1, 2]);
    expect(cache.size).toBe(2);
    // Read again from the store next time: a full reread starts afresh.
    expect(numbers(cache.extend('b', period, read([7, 8]), true).nums)).toEqual([7, 8]);
    expect(cache.size).toBe(4);
  });

  it('bounds a single large account by the total when no per-account bound is lower', () => {
    const cache = new DeliveredCache(4);
    cache.extend('a', period, read([1, 2, 3, 4, 5]), true);
    expect(cache.size).toBe(0);
    expect(cache.get('a', period)).toBeUndefined();
  });
});

describe('numbersOf: a bitmap that stays the same, and the numbers since', () => {
  it('is exactly the held set, the bitmap settled again only past MAX_RECENT_NUMBERS', () => {
    fc.assert(
      fc.property(
        // Reads of deliveries (repeats and overlaps included), each followed by a request or not.
        fc.array(fc.tuple(fc.array(fc.nat(5_000), { maxLength: 400 }), fc.boolean()), {
          maxLength: 12,
        }),
        (reads) => {
          const cache = new DeliveredCache();
          const held = new Set<number>();
          let last: string | null = null;
          for (const [nums, asked] of reads) {
            const entry = cache.extend('a', period, read(nums));
            for (const n of nums) held.add(n);
            if (!asked) continue;
            const { bitmap, recent } = numbersOf(entry);
            // The bitmap and the recent numbers are disjoint, and together the held set.
            const settled = [...held].filter((n) => !recent.includes(n));
            expect(new Set(recent).size).toBe(recent.length);
            expect(recent.every((n) => held.has(n))).toBe(true);
            expect(bitmap).toBe(new RoaringSet(settled).toBase64());
            // Settled again only when the recent numbers passed the bound.
            if (last !== null && bitmap !== last) expect(recent).toEqual([]);
            expect(recent.length).toBeLessThanOrEqual(MAX_RECENT_NUMBERS);
            last = bitmap;
          }
        },
      ),
    );
  });

  it('keeps the same bitmap text for the deliveries of many pages, then settles them', () => {
    const cache = new DeliveredCache();
    const first = numbersOf(cache.extend('a', period, read([1, 2, 3])));
    expect(first.recent).toEqual([]);
    let n = 100;
    const page = () => Array.from({ length: 25 }, () => n++);
    let now = first;
    for (let i = 0; i < 40; i++) {
      now = numbersOf(cache.extend('a', period, read(page())));
      expect(now.bitmap).toBe(first.bitmap);
    }
    expect(now.recent).toHaveLength(1000);
    expect(now.recent.slice(0, 3)).toEqual([100, 101, 102]);
    // One page more: past the bound (1,025), the bitmap is made again and holds them all.
    const settled = numbersOf(cache.extend('a', period, read(page())));
    expect(settled.recent).toEqual([]);
    expect(settled.bitmap).toBe(
      new RoaringSet([1, 2, 3, ...Array.from({ length: 1025 }, (_, i) => 100 + i)]).toBase64(),
    );
  });
});
