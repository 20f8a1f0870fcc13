import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

// `sslmode` in DATABASE_URL means what it means to libpq (psql, every managed service's
// documentation), and DATABASE_CA_FILE names the CA to trust. node-postgres alone reads `sslmode`
// its own way (`require` verifies fully) and lets the URL override an `ssl` option given beside
// it, so the TLS parameters are taken out of the URL here and turned into the driver's `ssl`.

/** The libpq `sslmode` values this driver can honour (it cannot fall back from TLS to plain). */
export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** URL parameters that describe TLS; removed from the connection string the driver parses. */
const TLS_PARAMS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat'];

export interface PgConnection {
  connectionString: string;
  /** undefined: the driver's default (plain, or PGSSLMODE); false: plain. */
  ssl?: false | ConnectionOptions;
}

/** Why a DATABASE_URL's TLS parameters cannot be honoured, or undefined (config.ts reports it). */
export function sslModeProblem(databaseUrl: string): string | undefined {
  const mode = new URL(databaseUrl).searchParams.get('sslmode');
  return mode === null ? undefined : unsupportedMode(mode);
}

/** libpq's modes that fall back between TLS and plain, which the driver cannot do. */
const FALLING_BACK = ['allow', 'prefer'];

function unsupportedMode(mode: string): string | undefined {
  if ((SSL_MODES as readonly string[]).includes(mode)) return undefined;
  // The fallback reason is only true of allow and prefer; any other word is simply not a mode.
  const why = FALLING_BACK.includes(mode)
    ? ' (the driver cannot fall back between TLS and plain)'
    : ' (not an sslmode)';
  return `sslmode=${mode} is not supported${why}: use ${SSL_MODES.join(', ')}`;
}

/**
 * The driver's connection settings for `databaseUrl`. `caFile` (DATABASE_CA_FILE) wins over the
 * URL's `sslrootcert`; `sslrootcert=system` means the platform's CAs. A CA without `sslmode` means
 * verify-full (a CA is given to be checked against). libpq's meaning of each mode:
 * require encrypts and checks nothing, unless a CA is given (then as verify-ca); verify-ca checks
 * the chain; verify-full the chain and the host name.
 */
export function pgConnection(databaseUrl: string, caFile?: string): PgConnection {
  const url = new URL(databaseUrl);
  const params = url.searchParams;
  const rootCert = caFile ?? params.get('sslrootcert') ?? undefined;
  const cert = params.get('sslcert');
  const key = params.get('sslkey');
  const requested = params.get('sslmode') ?? (rootCert ? 'verify-full' : undefined);
  for (const name of TLS_PARAMS) params.delete(name);
  const connectionString = url.toString();
  if (requested === undefined) return { connectionString };
  if (requested === 'disable') return { connectionString, ssl: false };
  const problem = unsupportedMode(requested);
  if (problem) throw new Error(`DATABASE_URL: ${problem}`);

  const ca = rootCert && rootCert !== 'system' ? readFileSync(rootCert, 'utf8') : undefined;
  const ssl: ConnectionOptions = {
    ...(ca ? { ca } : {}),
    ...(cert ? { cert: readFileSync(cert, 'utf8') } : {}),
    ...(key ? { key: readFileSync(key, 'utf8') } : {}),
  };
  const checksChain = requested !== 'require' || ca !== undefined;
  if (!checksChain) ssl.rejectUnauthorized = false;
  else if (requested !== 'verify-full') ssl.checkServerIdentity = () => undefined;
  return { connectionString, ssl };
}
