import { inlineParams } from '../../src/billing/inline-sql';

// The meter writes values into multi-statement queries as literals (issue 13): quoting must hold
// for any text, and nothing unquoted may get through.
describe('inlineParams', () => {
  it('quotes strings, dates, integers, null and text arrays', () => {
    expect(
      inlineParams('SELECT $1, $2, $3, $4, $5, $10', [
        "it's",
        new Date('2025-01-02T03:04:05.000Z'),
        42,
        null,
        ['a', 'b"c', 'd\\e'],
        'x',
        'x',
        'x',
        'x',
        'ten',
      ]),
    ).toBe(
      `SELECT 'it''s', '2025-01-02T03:04:05.000Z', 42, NULL,  E'{"a","b\\\\"c","d\\\\\\\\e"}', 'ten'`,
    );
  });

  it('refuses a missing value and a number that is not an integer', () => {
    expect(() => inlineParams('SELECT $2', ['a'])).toThrow(/no value for \$2/);
    expect(() => inlineParams('SELECT $1', [1.5])).toThrow(/not an integer/);
  });
});
