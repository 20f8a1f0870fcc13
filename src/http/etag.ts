// Conditional requests (RFC 9110 13.1.2 If-None-Match, 8.8.3 entity tags). If-None-Match always
// uses the weak comparison: W/"x" and "x" match each other. The field is "*" or a comma-separated
// list of entity tags; a comma inside a quoted tag belongs to the tag, so the list is scanned,
// not split. A malformed member is ignored (it can match nothing).

/** The opaque tags (with their quotes, without W/) of an If-None-Match value, or '*'. */
export function parseIfNoneMatch(value: string): '*' | string[] {
  if (value.trim() === '*') return '*';
  const tags: string[] = [];
  const tag = /\s*(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;
  let at = 0;
  while (at < value.length) {
    tag.lastIndex = at;
    const m = tag.exec(value);
    if (m?.[1]) {
      tags.push(m[1]);
      at = tag.lastIndex;
      continue;
    }
    // Skip a malformed member up to the next comma.
    const comma = value.indexOf(',', at);
    if (comma < 0) break;
    at = comma + 1;
  }
  return tags;
}

/** Whether an If-None-Match value matches the current entity tag (weak comparison). */
export function ifNoneMatchMatches(value: string | undefined, etag: string): boolean {
  if (value === undefined) return false;
  const tags = parseIfNoneMatch(value);
  if (tags === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return tags.includes(opaque);
}
