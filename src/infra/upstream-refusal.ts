import { STATUS_CODES } from 'node:http';
import { redactString } from './redact';

// When an upstream refuses the process at start-up, the operator reads one line
// that names the upstream, the kind of refusal and what to check, never a stack trace. Errors
// reach us in three shapes: Node's TLS and socket errors (a `code`), the OpenSearch client's
// (which keeps only the message of the socket error, and the HTTP status of a response), and the
// drivers' server replies (Postgres SQLSTATE, Redis WRONGPASS/NOAUTH). This file sorts them.

export type Upstream = 'opensearch' | 'postgres' | 'redis';

export type RefusalReason =
  | 'certificate'
  | 'hostname'
  | 'tls'
  | 'authentication'
  | 'authorization'
  | 'signature'
  | 'credentials'
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'unavailable';

/** One line per reason: what was refused. */
const SUMMARY: Record<RefusalReason, string> = {
  certificate: 'certificate not trusted',
  hostname: 'certificate does not name this host',
  tls: 'TLS handshake failed',
  authentication: 'authentication refused',
  authorization: 'access forbidden',
  signature: 'request signature refused',
  credentials: 'no AWS credentials',
  refused: 'connection refused',
  unreachable: 'host not found',
  timeout: 'no answer in time',
  unavailable: 'answered with an error',
};

/** Where a service's address is configured, for the hints that are about reaching it. */
const ADDRESS: Record<Upstream, string> = {
  opensearch: 'OPENSEARCH_URL',
  postgres: 'DATABASE_URL',
  redis: 'REDIS_URL',
};

/** What to check when the service could not be reached at all: the same for each. */
const reaching = (upstream: Upstream): Partial<Record<RefusalReason, string>> => ({
  refused: `check that it runs and that ${ADDRESS[upstream]} names its host and port`,
  unreachable: `check the host name in ${ADDRESS[upstream]} (and this host's DNS)`,
  timeout: `check that ${ADDRESS[upstream]}'s host and port are reachable from here (a firewall, a security group)`,
});

/** What to check, per upstream and reason (absent: the summary says enough). */
const HINT: Partial<Record<Upstream, Partial<Record<RefusalReason, string>>>> = {
  opensearch: {
    ...reaching('opensearch'),
    certificate: 'set OPENSEARCH_CA_FILE to the CA that issued its certificate',
    hostname: 'use the host name its certificate was issued for in OPENSEARCH_URL',
    tls: 'check that OPENSEARCH_URL says https only for a node that serves TLS',
    authentication:
      'check OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD or the user:password in OPENSEARCH_URL',
    authorization: 'the user or role lacks a permission the service needs',
    unavailable:
      'check that OPENSEARCH_URL names the nodes of the cluster (or a proxy that passes every path to them) and that the cluster is healthy',
    signature:
      'check the AWS credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile or role), OPENSEARCH_AWS_REGION and OPENSEARCH_AWS_SERVICE',
    credentials:
      'the AWS default credential chain (environment, shared files, SSO, web identity, container or instance role) found none',
  },
  postgres: {
    ...reaching('postgres'),
    certificate: 'set DATABASE_CA_FILE (or sslrootcert= in DATABASE_URL) to the CA that issued it',
    hostname: 'use the host name its certificate was issued for, or sslmode=verify-ca',
    tls: 'the server and sslmode in DATABASE_URL disagree about TLS',
    authentication: 'check the user and password in DATABASE_URL (and the server’s pg_hba rules)',
  },
  redis: {
    ...reaching('redis'),
    certificate: 'set REDIS_CA_FILE to the CA that issued its certificate',
    hostname: 'use the host name its certificate was issued for in REDIS_URL',
    tls: 'check that REDIS_URL says rediss:// only for a server that serves TLS',
    authentication: 'check the user and password in REDIS_URL',
  },
};

const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
]);

/** The same refusals as Node words them (the OpenSearch client keeps only the message). */
const BY_MESSAGE: [RegExp, RefusalReason][] = [
  [/altnames|does not match certificate/i, 'hostname'],
  [
    /self[- ]signed certificate|unable to (verify the first|get (local )?issuer) certificate|certificate (has expired|is not yet valid)/i,
    'certificate',
  ],
  [/EPROTO|wrong version number|packet length too long|does not support SSL/i, 'tls'],
  [/WRONGPASS|NOAUTH|invalid username-password|password authentication failed/i, 'authentication'],
  [/Could not load credentials|CredentialsProviderError/i, 'credentials'],
  [/ECONNREFUSED/, 'refused'],
  [/ENOTFOUND|EAI_AGAIN/, 'unreachable'],
  [/ETIMEDOUT|timed out|timeout/i, 'timeout'],
];

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
  meta?: { statusCode?: number; body?: unknown };
}

/** The error and everything it wraps (`cause`, an AggregateError's `errors`), outermost first. */
function chain(err: unknown, depth = 0): ErrorLike[] {
  if (err === null || typeof err !== 'object' || depth > 5) return [];
  const e = err as ErrorLike;
  return [
    e,
    ...chain(e.cause, depth + 1),
    ...(Array.isArray(e.errors) ? e.errors.flatMap((x) => chain(x, depth + 1)) : []),
  ];
}

/**
 * The reason an upstream refused, or undefined when `err` is not a refusal of the connection (a
 * bug, a failing migration: those keep their stack). `signed`: the OpenSearch requests carried a
 * SigV4 signature, so a 403 is about the signature or its key (AWS answers 403 to both).
 */
export function refusalReason(err: unknown, signed = false): RefusalReason | undefined {
  for (const e of chain(err)) {
    const status = e.name === 'ResponseError' ? e.meta?.statusCode : undefined;
    if (status === 401) return 'authentication';
    if (status === 403) return signed ? 'signature' : 'authorization';
    // Postgres: 28P01 wrong password, 28000 no pg_hba.conf entry allows this connection.
    if (e.code === '28P01' || e.code === '28000') return 'authentication';
    if (e.code && CERTIFICATE_CODES.has(e.code)) return 'certificate';
    if (e.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'hostname';
    if (e.name === 'TimeoutError') return 'timeout';
    const text = `${e.name ?? ''} ${e.code ?? ''} ${e.message ?? ''}`;
    for (const [pattern, reason] of BY_MESSAGE) if (pattern.test(text)) return reason;
    // A cluster that is down behind its proxy (502, 503), overloaded (429), or a URL that is not
    // the cluster's (404 on its first call): the operator's to fix, not a bug with a stack to read.
    if (status !== undefined && (status === 404 || status === 429 || status >= 500)) {
      return 'unavailable';
    }
  }
  return undefined;
}

/** What the upstream said, on one line, without secrets, short. */
export function upstreamSaid(err: unknown): string {
  const e = err as ErrorLike;
  const body = e.meta?.body;
  let said = e.message ?? String(err);
  if (typeof body === 'string' && body.trim()) said = body;
  else if (body && typeof body === 'object') {
    const b = body as { message?: unknown; Message?: unknown; error?: { reason?: unknown } };
    const text = b.message ?? b.Message ?? b.error?.reason;
    if (typeof text === 'string') said = text;
  }
  const status = e.meta?.statusCode;
  // A HEAD (the first call of start-up) has no body: the status's own words say more.
  if (status && said === 'Response Error') said = STATUS_CODES[status] ?? said;
  if (status) said = `HTTP ${status}: ${said}`;
  // An AggregateError (both addresses of `localhost` refused) has an empty message.
  if (!said.trim()) said = chain(err).find((x) => x.message)?.message ?? String(err);
  const line = redactString(said).replace(/\s+/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}

/** Start-up stopped because an upstream refused: the message is the whole report, one line. */
export class UpstreamRefusedError extends Error {
  constructor(
    readonly upstream: Upstream,
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamRefusedError';
  }
}

/** `target`: where the upstream is, already without credentials (redact.withoutCredentials). */
export function upstreamRefused(
  upstream: Upstream,
  target: string,
  reason: RefusalReason,
  err: unknown,
): UpstreamRefusedError {
  const hint = HINT[upstream]?.[reason];
  return new UpstreamRefusedError(
    upstream,
    reason,
    `start-up failed: ${upstream} (${target}): ${SUMMARY[reason]}: ${upstreamSaid(err)}` +
      (hint ? `; ${hint}` : ''),
  );
}

/** Runs one start-up step of `upstream`; a refusal of the connection becomes the one-line error. */
export async function refusalsOf<T>(
  upstream: Upstream,
  target: string,
  step: () => Promise<T>,
  signed = false,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof UpstreamRefusedError) throw err; // an inner step's, already said
    const reason = refusalReason(err, signed);
    throw reason ? upstreamRefused(upstream, target, reason, err) : err;
  }
}
