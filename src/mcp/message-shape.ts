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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
// `[` and `{` differ only in the bit 0x20, as `]` and `}` do: one mask tests both.
const OPENING = 0x5b;
const CLOSING = 0x5d;
const BRACE_BIT = 0x20;

/**
 * The same bounds read off the raw bytes, before they are parsed: JSON.parse of a megabyte of `[`
 * held the event loop for 150-200 ms, and a rate-limited caller could send one after another
 * (the limit is decided from the parsed message). One pass that stops at the first excess: a
 * bracket nested deeper than MAX_MESSAGE_DEPTH holds a value that deep, and every comma outside
 * a string separates two values, so what this refuses the parsed check refuses too. It does not
 * validate JSON; JSON.parse does that, on what passes.
 */
export function rawWithinMessageShape(body: Uint8Array): boolean {
  let depth = 0;
  let commas = 0;
  let inString = false;
  const length = body.length;
  for (let i = 0; i < length; i++) {
    const byte = body[i] as number;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    const bracket = byte & ~BRACE_BIT;
    if (byte === QUOTE) inString = true;
    else if (bracket === OPENING) {
      if (++depth > MAX_MESSAGE_DEPTH) return false;
    } else if (bracket === CLOSING) depth--;
    else if (byte === COMMA && ++commas >= MAX_MESSAGE_NODES) return false;
  }
  return true;
}
