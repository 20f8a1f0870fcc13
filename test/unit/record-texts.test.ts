import { recordDigest, recordText, storedRecord } from '../../src/domain/record-text';
import type { Opportunity } from '../../src/domain/record';
import { RecordTexts } from '../../src/search/record-texts';

// The process's record texts (search/record-texts.ts): a text is found only under its own digest,
// the bound is on the texts' total length, and whether first pages go by digest follows how many
// of their records were held lately.

const stored = (id: string, title: string) => {
  const json = JSON.stringify({ id, title });
  return storedRecord(id, json, recordDigest(json));
};

it('finds a text only under its digest', () => {
  const texts = new RecordTexts(10_000);
  const record = stored('a', 'Rust engineer');
  texts.remember(record);
  const { digest } = recordText(record);
  // A record of its own, with the same text.
  const found = texts.get('a', digest) as Opportunity;
  expect(found).not.toBe(record);
  expect(recordText(found)).toEqual(recordText(record));
  expect(JSON.stringify(found)).toBe(recordText(record).json);
  expect(texts.has('a', digest)).toBe(true);
  // The index holds another text for the record now: not this one.
  const changed = recordText(stored('a', 'Go engineer')).digest;
  expect(texts.get('a', changed)).toBeUndefined();
  expect(texts.has('a', changed)).toBe(false);
  expect(texts.get('b', digest)).toBeUndefined();
});

it('keeps at most its bound of text, the least recently used going first', () => {
  const one = recordText(stored('a', 'x')).json.length;
  const texts = new RecordTexts(one * 2);
  const [a, b, c] = ['a', 'b', 'c'].map((id) => stored(id, 'x')) as [
    Opportunity,
    Opportunity,
    Opportunity,
  ];
  const digest = (r: Opportunity) => recordText(r).digest;
  texts.remember(a);
  texts.remember(b);
  expect(texts.has('a', digest(a))).toBe(true);
  texts.get('a', digest(a)); // a is now the most recently used
  texts.remember(c);
  expect(texts.size).toBe(2);
  expect(texts.get('b', digest(b))).toBeUndefined();
  expect(texts.has('a', digest(a))).toBe(true);
  expect(texts.has('c', digest(c))).toBe(true);
});

it('stops going by digest when first pages miss, and comes back when they hit', () => {
  const texts = new RecordTexts(1000);
  expect(texts.likelyHeld()).toBe(true);
  let pages = 0;
  while (texts.likelyHeld()) {
    texts.observe(0, 25);
    pages++;
  }
  // About the last 20 pages count: a run of misses turns it within a few dozen pages.
  expect(pages).toBeGreaterThan(5);
  expect(pages).toBeLessThan(30);
  // An empty page teaches nothing.
  texts.observe(0, 0);
  expect(texts.likelyHeld()).toBe(false);
  pages = 0;
  while (!texts.likelyHeld()) {
    texts.observe(25, 25);
    pages++;
  }
  expect(pages).toBeLessThan(30);
});
