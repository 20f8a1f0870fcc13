/**
 * `text` as a regular expression that matches it literally: every syntax character escaped. Safe
 * with and without the `u` flag (only syntax characters are escaped, which `u` allows).
 */
export function regExpLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
