// Text helpers for request input (contract §19.9): each runs in time linear in its input, whatever
// the input, so no header or parameter can hold the event loop. A backtracking regex such as
// `/\/+$/` is quadratic on a long run of `/` that is not at the end: never use one on input.

/** `text` without the trailing run of `char` (one UTF-16 code unit), scanning once from the end. */
export function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * An origin as compared (contract §21.3): trimmed, without trailing slashes, lower case, and
 * without its scheme's default port (`https://a.example:443` is `https://a.example`, as a URL's
 * origin is written, so PUBLIC_BASE_URL's origin matches it).
 */
export function normalizeOrigin(origin: string): string {
  const lowered = trimTrailing(origin.trim(), '/').toLowerCase();
  for (const [scheme, port] of DEFAULT_PORTS) {
    if (lowered.startsWith(scheme) && lowered.endsWith(port)) return lowered.slice(0, -port.length);
  }
  return lowered;
}

const DEFAULT_PORTS = [
  ['https://', ':443'],
  ['http://', ':80'],
] as const;
