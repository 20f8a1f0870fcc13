import { createHash } from 'node:crypto';

// The one entity-tag function (RFC 9110 8.8.3): a digest of the representation's text. Strong for
// a body served byte for byte the same (the taxonomy); weak where equal tags mean the same content
// but not the same bytes (list and count, whose meta.request_id differs, service/revalidation.ts).

export function entityTag(text: string, strength: 'strong' | 'weak'): string {
  const opaque = `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
  return strength === 'weak' ? `W/${opaque}` : opaque;
}
