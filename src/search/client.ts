import { Client } from '@opensearch-project/opensearch';
import { ApiError } from '../domain/errors';
import { searchNodes } from './nodes';

export type SearchClient = Client;

/**
 * One client per process: it keeps a keep-alive pool. Every call is bounded by `timeoutMs`.
 * `url` may list several nodes (comma-separated): requests go round-robin to the living ones; a
 * node that fails is marked dead and skipped until a ping finds it alive again (the client's
 * 'ping' resurrect strategy, first tried a minute later, then backing off).
 */
export function createSearchClient(url: string, timeoutMs: number): Client {
  // No retries: the timeout is the whole bound on a call, so an unreachable cluster is a fast 503
  // and the client (who got Retry-After) decides when to try again. With several nodes, the call
  // that finds a node dead fails; the next ones go to the others.
  const nodes = searchNodes(url);
  return new Client({
    nodes,
    requestTimeout: timeoutMs,
    pingTimeout: Math.min(timeoutMs, 3000),
    maxRetries: 0,
    resurrectStrategy: 'ping',
  });
}

const RETRY_AFTER_SECONDS = 5;

/** Connection failures and timeouts become 503 search_unavailable (decisions 8); nothing is charged. */
export function isSearchUnavailable(err: unknown): boolean {
  const name = (err as { name?: string }).name ?? '';
  return ['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError'].includes(name);
}

/**
 * A connection refused or reset (a stopped node) fails at once and marks that node dead, so trying
 * again goes to another node: a stopped node of a cluster costs no failed request. Timeouts are
 * never retried, so OPENSEARCH_TIMEOUT_MS still bounds a call (decisions 8).
 */
const CONNECTION_ATTEMPTS = 3;

export async function onLivingNode<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (attempt >= CONNECTION_ATTEMPTS || name !== 'ConnectionError') throw err;
    }
  }
}

/** What the OpenSearch client throws; anything else from a call is our own bug. */
const CLIENT_ERRORS = new Set([
  'ResponseError',
  'ConnectionError',
  'TimeoutError',
  'NoLivingConnectionsError',
  'DeserializationError',
  'SerializationError',
  'RequestAbortedError',
  'OpenSearchClientError',
]);

/**
 * decisions 8: any search-engine failure that is not the caller's fault (429, 5xx, timeouts,
 * closed connections, a missing index, an unreadable answer) is 503 search_unavailable with
 * Retry-After, never a 500. A 400 from the engine answers a query built from validated input that
 * it still refuses (a free-text value beyond its limits): the caller's, 422.
 */
export async function searchCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await onLivingNode(fn);
  } catch (err) {
    const name = (err as { name?: string } | null)?.name ?? '';
    if (!CLIENT_ERRORS.has(name) && !isSearchUnavailable(err)) throw err;
    const status = (err as { meta?: { statusCode?: number } }).meta?.statusCode;
    const mapped =
      name === 'ResponseError' && status === 400
        ? new ApiError('validation_error', 'The search engine refused this query.')
        : new ApiError(
            'search_unavailable',
            'The search engine is unavailable; retry later with a new request id.',
            undefined,
            RETRY_AFTER_SECONDS,
          );
    // Kept for the logs and metrics (timeout or error); the envelope shows only code and message.
    mapped.cause = err;
    throw mapped;
  }
}

/** The readiness probe of the search engine (/readyz): answers, or not; never throws. */
export function pingSearch(client: Client): Promise<boolean> {
  return client.ping().then(
    () => true,
    () => false,
  );
}
