/**
 * Lower case as the search index writes it: its `lowercase` normalizer and filter map each code
 * point on its own by its simple mapping (Lucene's LowerCaseFilter, Java's Character.toLowerCase).
 * JavaScript's toLowerCase applies the full mapping in context instead: "İ" (U+0130) becomes "i"
 * followed by U+0307, and a word-final "Σ" becomes "ς", so a term lower-cased by it would miss
 * the very text the index stored ("İstanbul", "ΠΑΤΡΑΣ"). Filter terms and the in-memory index
 * lower-case with this, so both compare as the engine does.
 *
 * The two also read different editions of Unicode: Node's ICU knows Unicode 17, the engine's Java
 * (JDK 25) Unicode 16. The letters whose lower case Unicode 17 gave (U+A7CE, U+A7D2, U+A7D4, and
 * Beria Erfe's capitals U+16EA0–U+16EB8) are their own lower case to the engine, which stores them
 * as written: lower-cased here, the term named a letter no record held, and a record with one could
 * not be found by its own value. `index-case-engine.test.ts` asks the engine for every cased code
 * point and fails when the two part again (a newer Java, a newer Node).
 */
const ENGINE_KEEPS_CLASS = '\\ua7ce\\ua7d2\\ua7d4\\u{16ea0}-\\u{16eb8}';
const ENGINE_KEEPS = new RegExp(`[${ENGINE_KEEPS_CLASS}]`, 'u');
/** Where the simple mapping is not JavaScript's: İ, Σ, and the letters the engine keeps. */
const SIMPLE_EXCEPTIONS = new RegExp(`[\\u0130\\u03a3${ENGINE_KEEPS_CLASS}]`, 'u');

export function indexLowerCase(value: string): string {
  // Every other code point's full lower-case mapping is its simple one, one code point long.
  if (!SIMPLE_EXCEPTIONS.test(value)) return value.toLowerCase();
  let out = '';
  for (const ch of value) {
    out += ch === '\u0130' ? 'i' : ENGINE_KEEPS.test(ch) ? ch : ch.toLowerCase();
  }
  return out;
}

/**
 * An ISO code (`country`, `currency`) in its upper-case spelling, compared as the index compares
 * text: each character's simple lower case (indexLowerCase), then each written in upper case when
 * that upper case lower-cases back to it. JavaScript's toUpperCase maps "ß" to "SS", "ı" to "I" and
 * "ſ" to "S", so `ßp`, `ınr` and `uſd` were read as SSP, INR and USD, though no character of them
 * is a letter of those codes in another case (contract §6.11.6): they stay as they are. The Kelvin
 * sign, whose simple lower case is "k", reads as K; `äbc` reads as ÄBC, as applied_filters shows a
 * code (contract §6.13).
 */
export function codeCase(value: string): string {
  const lower = indexLowerCase(value);
  if (!/[^\p{ASCII}]/u.test(lower)) return lower.toUpperCase();
  let out = '';
  for (const ch of lower) {
    const upper = ch.toUpperCase();
    out += upper.length === ch.length && indexLowerCase(upper) === ch ? upper : ch;
  }
  return out;
}
