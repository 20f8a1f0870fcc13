import { readFileSync } from 'node:fs';
import { Client, Connection } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';
import { ApiError } from '../domain/errors';
import { withWholeDeadline } from './deadline-connection';
import { searchNodes } from './nodes';

export type SearchClient = Client;

/**
 * How the service proves itself to the cluster and checks the cluster's certificate.
 * Basic credentials may also sit in each node URL (`https://user:password@host:9200`), which the
 * client reads itself; config.ts refuses basic credentials and signing together.
 */
export interface SearchConnection {
  /** OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD: HTTP basic authentication. */
  basic?: { username: string; password: string };
  /** OPENSEARCH_CA_FILE: the CA that issued the nodes' certificates, besides the platform's. */
  caFile?: string;
  /** OPENSEARCH_AWS_REGION / _SERVICE: every request signed with SigV4 (Amazon OpenSearch). */
  aws?: { region: string; service: 'es' | 'aoss' };
}

/**
 * One client per process: it keeps a keep-alive pool. Every call is bounded by `timeoutMs`, from
 * its request to its answer's last byte.
 * `url` may list several nodes (comma-separated): requests go round-robin to the living ones; a
 * node that fails is marked dead and skipped until a ping finds it alive again (the client's
 * 'ping' resurrect strategy, first tried a minute later, then backing off). The API and the CLI
 * both get theirs from bootstrap.ts, so they connect alike.
 */
export function createSearchClient(
  url: string,
  timeoutMs: number,
  connection: SearchConnection = {},
): Client {
  // No retries: the timeout is the whole bound on a call, so an unreachable cluster is a fast 503
  // and the client (who got Retry-After) decides when to try again. With several nodes, the call
  // that finds a node dead fails; the next ones go to the others.
  const nodes = searchNodes(url);
  // The official signer: its Connection signs each request, its Transport fetches credentials
  // (and fetches them again before they expire: role and SSO credentials do).
  const signer = connection.aws
    ? AwsSigv4Signer({ ...connection.aws, getCredentials: awsCredentials() })
    : undefined;
  return new Client({
    ...signer,
    // requestTimeout bounds the whole call, not only a silence (deadline-connection.ts).
    Connection: withWholeDeadline(signer?.Connection ?? Connection),
    nodes,
    requestTimeout: timeoutMs,
    pingTimeout: Math.min(timeoutMs, 3000),
    maxRetries: 0,
    resurrectStrategy: 'ping',
    // The client parses every response with JSON.parse and then, unless told not to, scans the
    // whole text with two regular expressions for "__proto__" and "constructor" keys: a third of
    // the parse's cost, 0.1-0.15 ms of API CPU on a page of 25 texts (docs/benchmarks.md). JSON.parse
    // never sets a prototype (such a key becomes an own property), and nothing here merges a
    // response into another object: hits are read field by field, and a record's text is parsed
    // with JSON.parse alone (domain/record-text.ts).
    disablePrototypePoisoningProtection: true,
    ...(connection.basic ? { auth: connection.basic } : {}),
    // Certificates are always verified (Node's default); a CA file only adds what to trust.
    ...(connection.caFile ? { ssl: { ca: readFileSync(connection.caFile, 'utf8') } } : {}),
  });
}

/**
 * The standard AWS credential chain (environment, shared files, SSO, web identity, container and
 * instance roles), loaded on first use so a process that does not sign never loads the AWS SDK.
 * The provider caches what it found and looks again once it has expired.
 */
function awsCredentials() {
  let provider: Promise<() => Promise<AwsCredentials>> | undefined;
  return async (): Promise<AwsCredentials> => {
    provider ??= import('@aws-sdk/credential-provider-node').then((m) => m.defaultProvider());
    return (await provider)();
  };
}

type AwsCredentials = {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
};

const RETRY_AFTER_SECONDS = 5;

/** Connection failures and timeouts become 503 search_unavailable (contract §20.5); nothing is charged. */
export function isSearchUnavailable(err: unknown): boolean {
  const name = (err as { name?: string }).name ?? '';
  return ['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError'].includes(name);
}

/**
 * A connection refused or reset (a stopped node) fails at once and marks that node dead, so trying
 * again goes to another node: a stopped node of a cluster costs no failed request. Only a call
 * that has failed that quickly is tried again: each attempt has OPENSEARCH_TIMEOUT_MS of its own,
 * and a connection reset after seconds of silence (a hung node, a broken link) was tried twice
 * more, so a request waited three deadlines for its 503. Timeouts are never retried. So a call
 * takes at most OPENSEARCH_TIMEOUT_MS plus QUICK_FAILURE_MS (contract §20.3, §20.5).
 */
const CONNECTION_ATTEMPTS = 3;
export const QUICK_FAILURE_MS = 250;

export async function onLivingNode<T>(
  fn: () => Promise<T>,
  now: () => number = performance.now.bind(performance),
): Promise<T> {
  const started = now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const name = (err as { name?: string }).name;
      const quick = now() - started < QUICK_FAILURE_MS;
      if (attempt >= CONNECTION_ATTEMPTS || name !== 'ConnectionError' || !quick) throw err;
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
 * contract §20.5: any search-engine failure that is not the caller's fault is 503
 * search_unavailable with Retry-After, never a 500 or a 422: 429, 5xx, timeouts, closed
 * connections, a missing index, an unreadable answer, and a 400. Every query is built from input
 * already validated, so an engine 400 is ours (too many clauses, terms over index.max_terms_count,
 * a mapping that drifted from index-mappings/): it keeps the request id unspent (the caller did
 * nothing wrong and may retry with it) and its cause goes to the logs.
 */
export async function searchCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await onLivingNode(fn);
  } catch (err) {
    const name = (err as { name?: string } | null)?.name ?? '';
    if (!CLIENT_ERRORS.has(name) && !isSearchUnavailable(err)) throw err;
    const status = (err as { meta?: { statusCode?: number } }).meta?.statusCode;
    const refused = name === 'ResponseError' && (status === 400 || tooManyClauses(err));
    const mapped = new ApiError(
      'search_unavailable',
      refused
        ? 'The search engine could not run this query (a limit on our side); retry later.'
        : 'The search engine is unavailable; retry later (a list, detail or search call with a new X-Request-ID: its id is spent; a count spends none).',
      undefined,
      RETRY_AFTER_SECONDS,
    );
    mapped.keepsRequestId = refused;
    // Kept for the logs and metrics (timeout or error); the envelope shows only code and message.
    mapped.cause = err;
    throw mapped;
  }
}

/**
 * The engine's refusal of a query of too many clauses, which it answers 500, not 400: a limit of
 * ours (src/search/keyword-clauses.ts bounds the clauses), not an outage, so it keeps the request
 * id as a 400 does, and a caller does not retry it as an outage.
 */
function tooManyClauses(err: unknown): boolean {
  const error = (err as { meta?: { body?: { error?: EngineError } } }).meta?.body?.error;
  const types = [
    error?.type,
    error?.caused_by?.type,
    ...(error?.root_cause ?? []).map((c) => c.type),
  ];
  return types.some((type) => type === 'too_many_clauses' || type === 'too_many_nested_clauses');
}

interface EngineError {
  type?: string;
  caused_by?: { type?: string };
  root_cause?: { type?: string }[];
}

/** The readiness probe of the search engine (/readyz): answers, or not; never throws. */
export function pingSearch(client: Client): Promise<boolean> {
  return client.ping().then(
    () => true,
    () => false,
  );
}
