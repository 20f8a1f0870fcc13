import { unstorableTexts } from '../../src/domain/storable-text';

// src/domain/storable-text.ts: what Postgres cannot store, found by path before an import writes.

it('names the texts holding U+0000 or an unpaired surrogate, at any depth, keys included', () => {
  const value = {
    title: 'fine',
    a: 'nul \u0000',
    list: ['ok', 'high \ud800 alone', { deep: 'low \udc00 alone' }],
    'key \u0000': 'the value is fine',
    pair: 'emoji \ud83d\ude00',
  };
  expect(unstorableTexts(value)).toEqual(['a', 'list.1', 'list.2.deep', '(a key)']);
});

it('passes paired surrogates, other control characters and non-texts', () => {
  expect(unstorableTexts({ a: '\ud83d\ude00\u0001\t', n: 1, b: true, z: null })).toEqual([]);
  expect(unstorableTexts('\u0000')).toEqual(['(record)']);
  expect(unstorableTexts('\ud800\ud800')).toEqual(['(record)']);
});
