import { Client } from '@opensearch-project/opensearch';
import { ApiError } from '../domain/errors';

export type SearchClient = Client;

/** One client per process: it keeps a keep-alive pool. Every call is bounded by `timeoutMs`. */
export function createSearchClient(url: string, timeoutMs: number): Client {
  // No retries: the timeout is the whole bound on a call, so an unreachable cluster is a fast 503
  // and the client (who got Retry-After) decides when to try again.
  return new Client({ node: url, requestTimeout: timeoutMs, maxRetries: 0 });
}

const RETRY_AFTER_SECONDS = 5;

/** Connection failures and timeouts become 503 search_unavailable (decisions 8); nothing is charged. */
export function isSearchUnavailable(err: unknown): boolean {
  const name = (err as { name?: string }).name ?? '';
  return ['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError'].includes(name);
}

export async function searchCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (
      isSearchUnavailable(err) ||
      (err as { meta?: { statusCode?: number } }).meta?.statusCode === 503
    ) {
      const unavailable = new ApiError(
        'search_unavailable',
        'The search engine is unavailable; retry later with a new request id.',
        undefined,
        RETRY_AFTER_SECONDS,
      );
      // Kept for the logs and metrics (timeout or error); the envelope shows only code and message.
      unavailable.cause = err;
      throw unavailable;
    }
    throw err;
  }
}
