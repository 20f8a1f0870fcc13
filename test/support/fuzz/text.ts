import fc from 'fast-check';

// Hostile text for the fuzz suite: strings as a client might send them by mistake or on purpose,
// and the ways they can be put on the wire (contract §20.4: bad percent-escapes, unicode, invalid
// UTF-8, huge values).

/** Characters that backtracking parsers choke on when one of them runs long (contract §19.9). */
export const RUN_CHARS = ['/', ',', '%', ' ', '\t', '.', ':', ';', '=', '"', '\\', '-', 'a', '0'];

/**
 * contract §19.9: a long run of one character (up to the 16 KiB the HTTP server accepts in all),
 * alone or followed by something else: a regex like `/\/+$/` is quadratic on such a run when it
 * does not end the value.
 */
export const longRun: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...RUN_CHARS), fc.integer({ min: 1_000, max: 15_000 }), fc.boolean())
  .map(([c, n, tail]) => c.repeat(n) + (tail ? 'x' : ''));

/** Text of every kind: ascii, any unicode, lone surrogates' UTF-8, control characters, long runs. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\t',
      'null',
      'undefined',
      '[]',
      '{}',
      '-0',
      'NaN',
      'Infinity',
      '1e999',
      '9'.repeat(40),
      '0x10',
      '../../etc/passwd',
      '<script>alert(1)</script>',
      "' OR 1=1 --",
      '"; DROP TABLE accounts; --',
      '${jndi:ldap://x}',
      '__proto__',
      'constructor',
      '*',
      '?',
      '\\',
      '\u202e\u0645',
      '\ud83d\ude00',
      'é',
      'e\u0301',
    ),
  },
  { weight: 1, arbitrary: fc.nat({ max: 12_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: longRun },
);

/** A percent-escape that may be broken: `%ZZ`, a cut multi-byte sequence, an overlong `%C0%AF`... */
export const percentJunk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%', '%Z', '%ZZ', '%G0', '%0', '%00', '%FF', '%C0%AF', '%E0%A4%A', '%ED%A0%80'),
  fc.constantFrom('%25', '%2F', '%3F', '%23', '%26', '%3D', '%2C', '%0A', '%0D', '%20', '+'),
  fc
    .tuple(fc.stringMatching(/^[0-9a-f]{0,2}$/), fc.boolean())
    .map(([h, upper]) => `%${upper ? h.toUpperCase() : h}`),
);

/**
 * How a value is written into a URL: properly percent-encoded, raw (UTF-8 bytes and reserved
 * characters as they are; only what would break the request line is escaped), or with broken
 * escapes spliced in.
 */
export function onTheWire(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(encodeURIComponent(safeUnicode(value))) },
    { weight: 2, arbitrary: fc.constant(rawForRequestLine(value)) },
    {
      weight: 2,
      arbitrary: fc.tuple(percentJunk, fc.nat({ max: value.length })).map(([junk, at]) => {
        const encoded = encodeURIComponent(safeUnicode(value));
        const cut = Math.min(at, encoded.length);
        return encoded.slice(0, cut) + junk + encoded.slice(cut);
      }),
    },
  );
}

/** Lone surrogates cannot be encoded by encodeURIComponent; replace them. */
function safeUnicode(value: string): string {
  return value.replace(/[\ud800-\udfff]/gu, '\ufffd');
}

/**
 * Raw in the request line: only space, CR, LF and '#' are escaped (they would split or end the
 * target); everything else, UTF-8 bytes and control characters included, goes as it is (the raw
 * sender writes the head as UTF-8 bytes).
 */
export function rawForRequestLine(value: string): string {
  return safeUnicode(value).replace(
    /[ \r\n#]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/**
 * Keyword search text (contract §7.3): the operators of q (OR, -, quotes) in every position among
 * words, punctuation, synonyms and any unicode, up to and just past the 200-character limit.
 */
export const keywordText: fc.Arbitrary<string> = (() => {
  const piece = fc.oneof(
    fc.constantFrom('OR', 'or', '-', '"', '-"', '""', 'AND', 'NOT', '*', '~', '^2', '\\', '(', ')'),
    fc.constantFrom('c++', 'node.js', 'a+b|c', 'k8s', 'swe', 'golang', 'Développeur', 'C#', '.NET'),
    fc.constantFrom('title:rust', '[1 TO 5]', '/re/', '&&', '||', '!', '{', '}', ':', '?'),
    fc.string({ maxLength: 8 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
  );
  const joined = fc
    .tuple(fc.array(piece, { maxLength: 40 }), fc.constantFrom(' ', '', '  ', '\t'))
    .map(([parts, sep]) => parts.join(sep));
  return fc.oneof(
    { weight: 4, arbitrary: joined },
    { weight: 1, arbitrary: joined.map((t) => t.padEnd(200, ' x').slice(0, 200)) },
    { weight: 1, arbitrary: fc.nat({ max: 3 }).map((n) => 'a'.repeat(198 + n)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 190, maxLength: 201 }) },
  );
})();
