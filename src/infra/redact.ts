// Secrets never reach the logs (preamble standards; contract §14.2.5): whatever a caller passes to the
// logger is scrubbed here, by field name and by value, so a key pasted into any field (an error
// message, a path, a header dump) is replaced before the line is written.

import { redactKeys } from '../domain/key-shape';

/** Field names whose value is a credential, whatever it looks like. */
const SECRET_FIELD =
  /^(x-api-key|authorization|proxy-authorization|cookie|set-cookie|api[_-]?key|key|secret|password|passwd|token|access[_-]?token|x-marketplace-proxy-signature|database_url|redis_url|opensearch_url|opensearch_password|aws_secret_access_key|aws_session_token|cursor_signing_keys|marketplace_proxy_secret)$/i;

/** Besides API keys (domain/key-shape.ts): bearer credentials and passwords inside URLs. */
const SECRET_VALUE: [RegExp, string][] = [
  [/(bearer\s+)[^\s"',;]+/gi, '$1[redacted]'],
  [/(\/\/[^/:@\s]+:)[^@/\s]+@/g, '$1[redacted]@'],
];

export const REDACTED = '[redacted]';

/**
 * What every SECRET_VALUE pattern needs in a string, or a percent-escape that may hide one: most
 * strings (ids, paths) have none.
 */
const MAY_HOLD_SECRET = /oppk|bearer\s|\/\/|%[0-9a-f]{2}/i;

/** Each %XX as the byte's character, whatever surrounds it: linear, and never throws. */
const decodeOnce = (value: string) =>
  value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Decoded until no escape is left, at most three times (`%255F` is `%5F` is `_`). */
function percentDecoded(value: string): string {
  let out = value;
  for (let round = 0; round < 3 && out.includes('%'); round++) out = decodeOnce(out);
  return out;
}

/**
 * A key behind a few characters that are not base62 (`oppk_` and an invisible space, the
 * underscore swapped): the key's shape is not what a log must look for, its secret run is (32
 * base62 characters or more, as a key's; a shorter run after `oppk.` is some other word). Logs
 * only: an echo to the caller keeps the exact shape of domain/key-shape.ts.
 */
const DISGUISED_KEY = /oppk(?!_\[redacted\])[^A-Za-z0-9]{1,8}[A-Za-z0-9]{32,}/gi;

function scrubbed(value: string): string {
  let out = redactKeys(value).replace(DISGUISED_KEY, 'oppk_[redacted]');
  for (const [pattern, replacement] of SECRET_VALUE) out = out.replace(pattern, replacement);
  return out;
}

export function redactString(value: string): string {
  // One scan instead of three for every logged string: the request log writes several a request.
  if (!MAY_HOLD_SECRET.test(value)) return value;
  // A key can hide behind percent-escapes (a path's /%6Fppk_…, oppk%5F…): when the decoded text
  // holds one, the decoded text is what is logged, scrubbed.
  if (value.includes('%')) {
    const decoded = percentDecoded(value);
    const cleaned = scrubbed(decoded);
    if (cleaned !== decoded) return cleaned;
  }
  return scrubbed(value);
}

/** A scrubbed deep copy: secret-named fields become '[redacted]', strings lose embedded keys. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) return redactString(value.stack ?? value.message);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // contract §17.5: an accepted request id holds no key-like run (middleware/request-id.ts
    // refused it) and is logged exactly as sent, so that it can be found by its own text.
    if (k === 'request_id' && typeof v === 'string') out[k] = v;
    else
      out[k] =
        SECRET_FIELD.test(k) && v !== undefined && v !== null ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

/**
 * A URL (or a comma-separated list of them, as OPENSEARCH_URL) as start-up lines print it: without
 * user or password at all, and anything unparsable cut to its scheme.
 */
export function withoutCredentials(urls: string): string {
  return urls
    .split(',')
    .map((raw) => {
      const text = raw.trim();
      if (!URL.canParse(text))
        return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*$/is, '$1[redacted]');
      const url = new URL(text);
      url.username = '';
      url.password = '';
      url.search = '';
      return url.toString().replace(/\/$/, '');
    })
    .join(',');
}
