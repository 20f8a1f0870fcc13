import { createHash } from 'node:crypto';

// The one entity-tag function (RFC 9110 8.8.3): a digest of the representation's text. Strong for
// a body served byte for byte the same (the taxonomy); weak where equal tags mean the same content
// but not the same bytes (list and count, whose meta.request_id differs, service/revalidation.ts).
// The text may come in parts, digested in order as if joined: a list page hands over its records'
// kept digests rather than 25 records' text (service/list-json.ts).

export function entityTag(text: string | Iterable<string>, strength: 'strong' | 'weak'): string {
  const hash = createHash('sha256');
  if (typeof text === 'string') hash.update(text);
  else for (const part of text) hash.update(part);
  const opaque = `"${hash.digest('base64url').slice(0, 32)}"`;
  return strength === 'weak' ? `W/${opaque}` : opaque;
}
