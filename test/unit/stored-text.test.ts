import fc from 'fast-check';
import { servedText, storedText } from '../../src/search/stored-text';

// The index keeps each record's JSON text in ASCII (search/stored-text.ts); what is served must be
// the text JSON.stringify wrote, character for character, whatever the record holds.

/** Any UTF-16 units: lone surrogates, control characters, quotes and backslashes included. */
const units = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
    fc.constantFrom(
      '\\',
      '"',
      'u',
      '\\u00e9',
      '\\\\u00e9',
      '\ud83d\ude80',
      '\u2028',
      'é',
      '\u0001',
    ),
  ),
});
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    units,
    fc.integer(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(units, tie('value'), { maxKeys: 4 }),
  ),
})).value;

// JSON.stringify escapes every control character, so a stored text is printable ASCII.
const isAscii = (text: string) => /^[ -\x7f]*$/.test(text);

it('keeps any JSON text as ASCII and gives the same text back', () => {
  fc.assert(
    fc.property(values, (value) => {
      const json = JSON.stringify(value);
      const stored = storedText(json);
      expect(isAscii(stored)).toBe(true);
      expect(JSON.parse(stored)).toEqual(JSON.parse(json));
      expect(servedText(stored)).toBe(json);
    }),
    { numRuns: 2000 },
  );
});

it('serves a text stored before the texts were ASCII as it is', () => {
  fc.assert(
    fc.property(values, (value) => {
      const json = JSON.stringify(value);
      expect(servedText(json)).toBe(json);
    }),
    { numRuns: 2000 },
  );
});

it('escapes each unit of a pair and every character above U+007F, and nothing else', () => {
  const json = JSON.stringify({ t: 'Zürich – 🚀 \u007f "q" \\u00e9 \u0001 \ud800' });
  expect(storedText(json)).toBe(
    '{"t":"Z\\u00fcrich \\u2013 \\ud83d\\ude80 \u007f \\"q\\" \\\\u00e9 \\u0001 \\ud800"}',
  );
  expect(servedText(storedText(json))).toBe(json);
});

it('returns an ASCII text untouched without scanning for escapes to undo', () => {
  const json = JSON.stringify({ title: 'Plain "engineer"\n\\path' });
  expect(servedText(json)).toBe(json);
  expect(storedText(json)).toBe(json);
});
