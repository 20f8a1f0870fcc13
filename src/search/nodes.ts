// OPENSEARCH_URL may name several nodes of one cluster, comma-separated: the client
// spreads requests over them and skips the ones that fail until they answer a ping again.

/** The node URLs of an OPENSEARCH_URL value, in order, without blanks. */
export function searchNodes(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Every node is an absolute http(s) URL, and there is at least one. */
export function validSearchNodes(value: string): boolean {
  const nodes = searchNodes(value);
  return (
    nodes.length > 0 && nodes.every((n) => URL.canParse(n) && /^https?:$/.test(new URL(n).protocol))
  );
}
