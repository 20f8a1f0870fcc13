import { entityTag } from '../infra/entity-tag';

// Free revalidation (contract §13): list and count responses carry an ETag; a matching
// If-None-Match gets 304 when the response would be the same apart from meta.request_id.

/** Says whether a client's validators match an entity tag (the HTTP adapter parses the field). */
export type Revalidation = (etag: string) => boolean;

/**
 * A weak entity tag of a response body, blind to meta.request_id (the only part that differs
 * from one identical response to the next). Weak: equal tags mean the same content, not the same
 * bytes, since the request id in the body does differ.
 */
export function representationTag(body: { meta: { request_id: string } }): string {
  const canonical = JSON.stringify({ ...body, meta: { ...body.meta, request_id: '' } });
  return entityTag(canonical, 'weak');
}
