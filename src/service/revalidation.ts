import { createHash } from 'node:crypto';
import { ApiError } from '../domain/errors';

// Free revalidation (decisions 11): list and count responses carry an ETag; a matching
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
  return `W/"${createHash('sha256').update(canonical).digest('base64url').slice(0, 32)}"`;
}

/**
 * Runs the part of a conditional list call that comes before its request id is spent. A 304
 * spends none (decisions 11), so the id is spent only once the answer is not 304; but when this
 * part fails, the call still spends its id like any list (decisions 7), and a reused id is then
 * the error the caller sees, as it would have been without If-None-Match.
 */
export async function beforeSpending<T>(
  spend: () => Promise<void>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // decisions 7 and 12: an id its failure keeps unspent (a 429, an engine refusal that was ours)
    // is not spent here either.
    if (err instanceof ApiError && err.keepsRequestId) {
      throw err;
    }
    await spend().catch((spendErr: unknown) => {
      if (spendErr instanceof ApiError && spendErr.code === 'duplicate_request_id') throw spendErr;
    });
    throw err;
  }
}
