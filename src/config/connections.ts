import { accessSync, constants } from 'node:fs';
import { z } from 'zod';
import type { SearchConnection } from '../search/client';
import { searchNodes } from '../search/nodes';
import { sslModeProblem } from '../store/pg-tls';

// The settings that reach managed, secured services (docs/operations.md, "Managed
// services"), kept in one place: their schema, the combinations that cannot work (each reported
// at start-up with the others, naming the variable) and what the search client is built from.

// An empty value never reaches these: parseEnv (config.ts) takes it as unset.
const optionalText = z.string().optional();
const readableFile = z.string().refine(readable, 'cannot read this file').optional();
const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

export const connectionEnv = {
  /** HTTP basic authentication to OpenSearch (or user:password in OPENSEARCH_URL). */
  OPENSEARCH_USERNAME: optionalText,
  OPENSEARCH_PASSWORD: optionalText,
  /** PEM file of the CA that issued the OpenSearch nodes' certificates (verification stays on). */
  OPENSEARCH_CA_FILE: readableFile,
  /** Set: every OpenSearch request is signed with SigV4 for this region (AWS credential chain). */
  OPENSEARCH_AWS_REGION: optionalText,
  /** `es` (Amazon OpenSearch Service domain, the default) or `aoss` (serverless collection). */
  OPENSEARCH_AWS_SERVICE: z.enum(['es', 'aoss']).optional(),
  /** Production accepts plain http to a non-loopback OpenSearch only with this set to true. */
  OPENSEARCH_ALLOW_INSECURE: flag,
  /** PEM file of the CA that issued Postgres's certificate (sslmode from DATABASE_URL). */
  DATABASE_CA_FILE: readableFile,
  /** PEM file of the CA that issued Redis's certificate (a rediss:// REDIS_URL). */
  REDIS_CA_FILE: readableFile,
};

/**
 * The settings read here: the schema above and the three service URLs (src/config.ts's Env has
 * them all; naming only these keeps config.ts → config/connections.ts a one-way import).
 */
export type ConnectionSettings = z.infer<z.ZodObject<typeof connectionEnv>> & {
  OPENSEARCH_URL?: string | undefined;
  DATABASE_URL?: string | undefined;
  REDIS_URL?: string | undefined;
};

/** Combinations of valid values that still cannot work, one message each. */
export function connectionProblems(env: ConnectionSettings, production: boolean): string[] {
  const problems: string[] = [];
  const nodes = env.OPENSEARCH_URL ? searchNodes(env.OPENSEARCH_URL).map((n) => new URL(n)) : [];
  const urlCredentials = nodes.some((n) => n.username !== '' || n.password !== '');
  if (!env.OPENSEARCH_USERNAME !== !env.OPENSEARCH_PASSWORD)
    problems.push('OPENSEARCH_USERNAME, OPENSEARCH_PASSWORD: set both or neither');
  if (env.OPENSEARCH_USERNAME && urlCredentials)
    problems.push('OPENSEARCH_USERNAME: OPENSEARCH_URL carries credentials too; keep one');
  if (env.OPENSEARCH_AWS_SERVICE && !env.OPENSEARCH_AWS_REGION)
    problems.push('OPENSEARCH_AWS_SERVICE: needs OPENSEARCH_AWS_REGION');
  if (env.OPENSEARCH_AWS_REGION && (env.OPENSEARCH_USERNAME || urlCredentials))
    problems.push(
      'OPENSEARCH_AWS_REGION: SigV4 signing and basic credentials exclude each other; keep one',
    );
  if (env.OPENSEARCH_CA_FILE && nodes.length > 0 && nodes.every((n) => n.protocol === 'http:'))
    problems.push('OPENSEARCH_CA_FILE: no node of OPENSEARCH_URL is https');
  // Credentials and documents would cross the network in clear text: production says so first.
  if (production && !env.OPENSEARCH_ALLOW_INSECURE)
    for (const node of nodes.filter((n) => n.protocol === 'http:' && !loopback(n.hostname)))
      problems.push(
        `OPENSEARCH_URL: plain http to ${node.host} in production; use https, or set OPENSEARCH_ALLOW_INSECURE=true on a private network`,
      );
  if (env.REDIS_CA_FILE && !env.REDIS_URL?.startsWith('rediss://'))
    problems.push('REDIS_CA_FILE: needs a rediss:// REDIS_URL');
  const sslMode = env.DATABASE_URL ? new URL(env.DATABASE_URL).searchParams.get('sslmode') : null;
  const modeProblem = env.DATABASE_URL ? sslModeProblem(env.DATABASE_URL) : undefined;
  if (modeProblem) problems.push(`DATABASE_URL: ${modeProblem}`);
  if (env.DATABASE_CA_FILE && sslMode === 'disable')
    problems.push('DATABASE_CA_FILE: DATABASE_URL says sslmode=disable');
  return problems;
}

function loopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** What the search client (bootstrap.ts, for the API and the CLI alike) is built with. */
export function searchConnection(env: ConnectionSettings): SearchConnection {
  return {
    ...(env.OPENSEARCH_USERNAME && env.OPENSEARCH_PASSWORD
      ? { basic: { username: env.OPENSEARCH_USERNAME, password: env.OPENSEARCH_PASSWORD } }
      : {}),
    ...(env.OPENSEARCH_CA_FILE ? { caFile: env.OPENSEARCH_CA_FILE } : {}),
    ...(env.OPENSEARCH_AWS_REGION
      ? { aws: { region: env.OPENSEARCH_AWS_REGION, service: env.OPENSEARCH_AWS_SERVICE ?? 'es' } }
      : {}),
  };
}

/** How the service authenticates to OpenSearch, for the start-up line (never the secret). */
export function searchAuthentication(env: ConnectionSettings): string {
  if (env.OPENSEARCH_AWS_REGION)
    return `sigv4 (${env.OPENSEARCH_AWS_SERVICE ?? 'es'}, ${env.OPENSEARCH_AWS_REGION})`;
  const inUrl = env.OPENSEARCH_URL?.split(',').some(
    (n) => URL.canParse(n.trim()) && new URL(n.trim()).username !== '',
  );
  return env.OPENSEARCH_USERNAME || inUrl ? 'basic' : 'none';
}
