// A lone UTF-16 surrogate: JSON can carry one, a URL cannot (REST's decoder reads invalid UTF-8 as
// U+FFFD). Kept, it made a tool call mean what no REST request can: a `q` word no record holds, a
// `city` searched for and echoed raw in applied_filters, an argument's name echoed raw in an error
// (text that strict JSON readers refuse). Read at the tool-protocol boundary, names and values
// alike, so that every tool and every check after it sees what REST would (contract §21.6.5), and
// in every message that quotes a caller (domain/errors.ts shownName, the transport's refusals).
const LONE_SURROGATE = /\p{Surrogate}/gu;

/** `text` as REST reads the same bytes: each lone surrogate is U+FFFD; pairs stay. */
export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Tool arguments with every string in them, names included, read as `wellFormedText` reads. */
export function wellFormedArguments(args: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines own properties: an own `__proto__` argument stays an argument (refused as
  // unknown, as REST refuses `?__proto__=`), not the copy's prototype.
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => [wellFormedText(name), wellFormedValue(value)]),
  );
}

function wellFormedValue(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (Array.isArray(value)) return value.map(wellFormedValue);
  if (value !== null && typeof value === 'object') {
    return wellFormedArguments(value as Record<string, unknown>);
  }
  return value;
}
