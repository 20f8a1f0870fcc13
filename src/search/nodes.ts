// OPENSEARCH_URL may name several nodes of one cluster, comma-separated: the client
// spreads requests over them and skips the ones that fail until they answer a ping again.

/** The node URLs of an OPENSEARCH_URL value, in order, without blanks. */
export function searchNodes(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Every node is an absolute http(s) URL, each named once, and there is at least one. The client
 * knows a node by its URL as parsed (`http://h:9200` and `http://h:9200/` are one) and throws on a
 * second one with a stack trace, at start-up.
 */
export function validSearchNodes(value: string): boolean {
  const nodes = searchNodes(value);
  const valid = nodes.every((n) => URL.canParse(n) && /^https?:$/.test(new URL(n).protocol));
  return (
    valid && nodes.length > 0 && new Set(nodes.map((n) => new URL(n).href)).size === nodes.length
  );
}
