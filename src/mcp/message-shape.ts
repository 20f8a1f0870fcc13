/**
 * How much structure one JSON-RPC message may carry. A real message is small: a tool call's
 * arguments are some forty names, lists of at most a few hundred items, nested four deep; the
 * 2026-07-28 envelope adds a few levels of `_meta`. A message of tens of thousands of keys, or
 * thousands of levels, costs the SDK's validation (it copies the message several times) up to a
 * second of the event loop for every other request, and overflows the stack of whatever walks it
 * recursively: refused before anything reads it (contract §19.9: "no body value ... holds the
 * event loop for more than a few milliseconds").
 */
export const MAX_MESSAGE_NODES = 5_000;
export const MAX_MESSAGE_DEPTH = 32;

/** Whether a parsed message stays within both bounds; walks iteratively, stops at the first excess. */
export function withinMessageShape(message: unknown): boolean {
  let nodes = 0;
  const stack: [unknown, number][] = [[message, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth] = next;
    if (++nodes > MAX_MESSAGE_NODES || depth > MAX_MESSAGE_DEPTH) return false;
    if (typeof value !== 'object' || value === null) continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      stack.push([child, depth + 1]);
    }
  }
  return true;
}
