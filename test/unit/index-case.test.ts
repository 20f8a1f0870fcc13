import { indexLowerCase } from '../../src/domain/index-case';

// Lucene's LowerCaseFilter (the index's lowercase normalizer): each code point by its simple mapping.
describe('indexLowerCase', () => {
  it.each([
    ['İstanbul', 'istanbul'],
    ['İSTANBUL', 'istanbul'],
    ['ΠΑΤΡΑΣ', 'πατρασ'],
    ['ΔΥΤΙΚΗ ΕΛΛΑΔΑΣ', 'δυτικη ελλαδασ'],
    ['Σ', 'σ'],
    ['San Francisco', 'san francisco'],
    ['Düsseldorf', 'düsseldorf'],
    ['ß', 'ß'],
    ['', ''],
  ])('%s → %s', (value, lower) => {
    expect(indexLowerCase(value)).toBe(lower);
  });

  it('keeps the length in code points', () => {
    for (const value of ['İİİ', 'ΑΣ ΣΑΣ', 'x\u0130y']) {
      expect([...indexLowerCase(value)]).toHaveLength([...value].length);
    }
  });
});
