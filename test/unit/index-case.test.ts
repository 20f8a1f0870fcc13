import { codeCase, indexLowerCase } from '../../src/domain/index-case';

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
    // Unicode 17's new lower cases, which the engine's Java (Unicode 16) does not know.
    ['\ua7cex', '\ua7cex'],
    ['\u{16ea0} dev', '\u{16ea0} dev'],
    ['\u{16eb8}\u0130', '\u{16eb8}i'],
  ])('%s → %s', (value, lower) => {
    expect(indexLowerCase(value)).toBe(lower);
  });

  it('keeps the length in code points', () => {
    for (const value of ['İİİ', 'ΑΣ ΣΑΣ', 'x\u0130y']) {
      expect([...indexLowerCase(value)]).toHaveLength([...value].length);
    }
  });
});

describe('codeCase', () => {
  it.each([
    ['usd', 'USD'],
    ['Us', 'US'],
    ['\u212Ay', 'KY'], // the Kelvin sign lower-cases to k
    ['uſd', 'UſD'], // JavaScript's toUpperCase made it USD
    ['ßp', 'ßP'], // and this SSP
    ['ınr', 'ıNR'], // and this INR
    ['äbc', 'ÄBC'], // other letters are upper-cased as ASCII is
    ['ÄBC', 'ÄBC'],
    ['ｓｅｋ', 'ＳＥＫ'],
    ['σεκ', 'ΣΕΚ'],
    ['ςεκ', 'ςΕΚ'], // Σ lower-cases to σ, never to ς
  ])('%j → %j', (value, code) => {
    expect(codeCase(value)).toBe(code);
  });
});
