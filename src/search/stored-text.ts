// How a record's JSON text is kept in the index: as ASCII, every character above U+007F written as
// a JSON \u escape. A page's answer from the engine is then pure ASCII, which Node turns into a
// string by copying bytes; one accented letter or dash in a text sends the whole answer through
// V8's UTF-8 decoder instead, and the flattened result is a two-byte string for the JSON parser.
// On the bench's index, a search of 101 hits (263 KB, about twenty such characters) took 3.9 ms of
// CPU to decode and parse as stored before, 1.6 ms as ASCII (docs/benchmarks.md, ASCII texts).
// The escapes are taken out again when a hit is read, so what the API serves, hashes and splices
// is exactly JSON.stringify(record), as before.

/** A character the stored text writes as an escape: any UTF-16 unit above U+007F. */
const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * A \u escape that starts an escape (an even run of backslashes before it, so `\\u00e9`, an escaped
 * backslash and the letters u00e9, is left alone), with the low half of a surrogate pair after it.
 */
const ESCAPE = /(?<!\\)((?:\\\\)*)\\u([0-9a-f]{4})(?:\\u(d[c-f][0-9a-f]{2}))?/g;

const escapeOf = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `json` (a JSON text) as the index keeps it: the same JSON, in ASCII. */
export function storedText(json: string): string {
  return json.replace(NON_ASCII, escapeOf);
}

/**
 * The JSON text that storedText was given, from what it returned. Also the identity on any text
 * JSON.stringify wrote (an index written before the texts were stored as ASCII): JSON.stringify
 * escapes only control characters and lone surrogates, and both are kept as escapes here.
 */
export function servedText(stored: string): string {
  if (!stored.includes('\\u')) return stored;
  return stored.replace(ESCAPE, (escape, backslashes: string, hex: string, low?: string) => {
    const unit = parseInt(hex, 16);
    // A control character, or a lone low surrogate: JSON.stringify's own escapes.
    if (unit < 0x80 || (unit >= 0xdc00 && unit <= 0xdfff)) return escape;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // A pair was two characters in the text; a lone high surrogate was JSON.stringify's escape.
      return low === undefined
        ? escape
        : backslashes + String.fromCharCode(unit, parseInt(low, 16));
    }
    // The escape after this character, when there is one, is a lone low surrogate's: kept.
    return backslashes + String.fromCharCode(unit) + (low === undefined ? '' : `\\u${low}`);
  });
}
