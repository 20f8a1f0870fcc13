import { ifNoneMatchMatches, parseIfNoneMatch } from '../../src/http/etag';

// RFC 9110 13.1.2: If-None-Match is "*" or a list of entity tags, compared weakly.

describe('parseIfNoneMatch', () => {
  it.each([
    ['"a"', ['"a"']],
    ['W/"a"', ['"a"']],
    ['"a", W/"b" ,"c"', ['"a"', '"b"', '"c"']],
    ['"a,b", "c"', ['"a,b"', '"c"']],
    ['""', ['""']],
    ['a, "b"', ['"b"']],
    ['"a" junk, "b"', ['"b"']],
    ['w/"a"', []],
    ['', []],
    [' * ', '*'],
  ])('%s', (value, expected) => {
    expect(parseIfNoneMatch(value)).toEqual(expected);
  });
});

describe('ifNoneMatchMatches (weak comparison)', () => {
  it.each([
    ['W/"x"', 'W/"x"', true],
    ['"x"', 'W/"x"', true],
    ['W/"x"', '"x"', true],
    ['"y", W/"x"', 'W/"x"', true],
    ['*', 'W/"x"', true],
    ['"y"', 'W/"x"', false],
    ['"X"', 'W/"x"', false],
    ['x', 'W/"x"', false],
  ])('%s against %s → %s', (value, etag, expected) => {
    expect(ifNoneMatchMatches(value, etag)).toBe(expected);
  });

  it('no header never matches', () => {
    expect(ifNoneMatchMatches(undefined, 'W/"x"')).toBe(false);
  });
});
