// contract §7.2: keyword search is accent-insensitive in every script, not only in Latin. The
// engine's asciifolding filter folds Latin letters only, and the combining_marks character filter
// drops marks written as their own characters: a precomposed Greek or Cyrillic letter (ή, й) kept
// its accent while the same letter decomposed lost it, so the two spellings of one word, or a word
// with and without its accent, did not find each other. The script_accents character filter maps
// each precomposed letter of the Greek, Cyrillic and Greek Extended blocks to its base letter (the
// letter its canonical decomposition starts with), and the final sigma to sigma, since the engine's
// lowercase filter makes Σ a σ wherever it stands. The in-memory index folds the same way
// (memory-text.ts: NFD, marks dropped, ς as σ).

/** The Unicode blocks whose precomposed letters are folded here (Latin is asciifolding's). */
const BLOCKS: readonly (readonly [number, number])[] = [
  [0x0370, 0x03ff], // Greek and Coptic
  [0x0400, 0x04ff], // Cyrillic
  [0x1f00, 0x1fff], // Greek Extended (polytonic)
];

/** The mapping character filter's rules (`ή=>η`), computed from Unicode's decompositions. */
export function scriptAccentFolds(): string[] {
  const rules = ['ς=>σ'];
  for (const [first, last] of BLOCKS) {
    for (let code = first; code <= last; code++) {
      const letter = String.fromCodePoint(code);
      if (!/\p{L}/u.test(letter)) continue;
      const decomposed = letter.normalize('NFD');
      const base = decomposed.replace(/\p{M}/gu, '');
      if (base !== decomposed && base !== '') rules.push(`${letter}=>${base}`);
    }
  }
  return rules;
}
