/**
 * Lower case as the search index writes it: its `lowercase` normalizer and filter map each code
 * point on its own by its simple mapping (Lucene's LowerCaseFilter, Java's Character.toLowerCase).
 * JavaScript's toLowerCase applies the full mapping in context instead: "İ" (U+0130) becomes "i"
 * followed by U+0307, and a word-final "Σ" becomes "ς", so a term lower-cased by it would miss
 * the very text the index stored ("İstanbul", "ΠΑΤΡΑΣ"). Filter terms and the in-memory index
 * lower-case with this, so both compare as the engine does.
 */
export function indexLowerCase(value: string): string {
  // Every other code point's full lower-case mapping is its simple one, one code point long.
  if (!/[\u0130\u03a3]/.test(value)) return value.toLowerCase();
  let out = '';
  for (const ch of value) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}
