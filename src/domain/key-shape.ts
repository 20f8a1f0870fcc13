// contract §14.2: an API key is `oppk_` followed by at least 32 base62 characters. The one
// statement of that shape, for the store that issues keys and for every place that must recognise
// one pasted where it does not belong: refused in a URL or a request id, hidden in an echo or a log.

export const KEY_PREFIX = 'oppk_';

/** Anything the store could have made (it makes keys of 40 characters); nothing else is a key. */
export const KEY_SHAPE = /^oppk_[A-Za-z0-9]{32,128}$/;

/** A whole key inside a longer text, in any case. */
export const CARRIES_KEY = /oppk_[A-Za-z0-9]{32}/i;

/** `text` with every key-like run (`oppk_` and base62, any case) shown as `oppk_[redacted]`. */
export function redactKeys(text: string): string {
  return text.replace(/oppk_[A-Za-z0-9]+/gi, 'oppk_[redacted]');
}

/** Whether `redactKeys` would change `text`: it holds a key-like run, whole key or part of one. */
export const HOLDS_KEY_RUN = /oppk_[A-Za-z0-9]/i;

/** Whether a query value (a string, or what a parser made of a repeated or bracketed name) holds a key. */
export function holdsKey(value: unknown): boolean {
  if (typeof value === 'string') return CARRIES_KEY.test(value);
  if (Array.isArray(value)) return value.some(holdsKey);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsKey);
  return false;
}
