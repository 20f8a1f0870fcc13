import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseCursorKeys } from './search/cursor';
import { validSearchNodes } from './search/nodes';
import { parseTrustProxy, type TrustProxy } from './infra/client-address';
import { connectionEnv, connectionProblems } from './config/connections';
import { normalizeOrigin, trimTrailing } from './infra/http-text';
import { DEFAULT_COMMIT_TIMEOUT_MS } from './store/db';

// Configuration is read once, from the environment, by this schema (contract §22.1). A bad value
// stops start-up with a message naming the variable.

const optionalUrl = z.url().optional();
/** A URL of one of these schemes: another service's URL (mysql://) would be read as this one's. */
const optionalUrlOf = (...schemes: string[]) =>
  optionalUrl.refine(
    // Run after z.url() found the value malformed too: that value's issue is z.url()'s.
    (url) =>
      url === undefined ||
      !URL.canParse(url) ||
      schemes.includes(new URL(url).protocol.slice(0, -1)),
    `expected a ${schemes.map((s) => `${s}://`).join(' or ')} URL`,
  );
/** One node URL, or several of one cluster comma-separated. */
const optionalNodeList = z
  .string()
  .refine(validSearchNodes, 'expected http(s) URLs, comma-separated, each once')
  .optional();
/**
 * A number written in decimal digits (a sign and a fraction let the schema name what is wrong):
 * z.coerce.number alone read `PORT=0x50`, `1e3` and `0b1010` as numbers, which no operator means.
 */
const DECIMAL_NUMBER = /^\s*[+-]?\d+(\.\d+)?\s*$/;
const decimal = <T extends z.ZodType>(
  schema: T,
  message = 'expected a number written in decimal digits',
) =>
  z.preprocess((value, ctx) => {
    if (typeof value === 'string' && !DECIMAL_NUMBER.test(value)) {
      ctx.addIssue({ code: 'custom', message, input: value });
      return z.NEVER;
    }
    // A fraction a double cannot hold is no integer all the same (PORT=5.0000000000000001 was 5).
    if (typeof value === 'string' && /\.\d*[1-9]/.test(value) && Number.isInteger(Number(value))) {
      ctx.addIssue({ code: 'custom', message: 'expected an integer', input: value });
      return z.NEVER;
    }
    return value;
  }, schema);
const optionalCount = decimal(z.coerce.number().int().min(0).max(1024).optional());
const positiveInt = (fallback: number) =>
  decimal(z.coerce.number().int().positive().default(fallback));
/**
 * Node's timers take at most 2^31-1 ms (about 24.8 days) and fire after 1 ms beyond it, with only
 * a warning: SYNC_INTERVAL_MS=2147483648 ran the index follower in a loop, and a longer shutdown
 * grace cut every request at once. A duration the timers cannot keep is refused. The shutdown
 * grace leaves room for the primary's margin after it (app/processes.ts).
 */
export const MAX_TIMER_MS = 2_147_483_647;
const durationMs = (fallback: number, { min = 1, max = MAX_TIMER_MS } = {}) =>
  decimal(
    z.coerce
      .number()
      .int()
      .min(min)
      .max(max, `at most ${max} ms (about ${Math.floor(max / 86_400_000)} days)`)
      .default(fallback),
  );

/**
 * An allowed origin as a browser sends it (`https://app.example.com`, the default port left out),
 * or undefined for what no Origin header can equal: a path, a wildcard, credentials, another
 * scheme. Such an entry was accepted and never matched.
 */
function originOf(item: string): string | undefined {
  if (!URL.canParse(item)) return undefined;
  const url = new URL(item);
  const plain = !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
  return plain && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : undefined;
}

const API_PROCESSES_RANGE = 'expected an integer from 1 to 64, or auto';

export const EnvSchema = z.object({
  DATABASE_URL: optionalUrlOf('postgresql', 'postgres'),
  OPENSEARCH_URL: optionalNodeList,
  REDIS_URL: optionalUrlOf('redis', 'rediss'),
  PORT: decimal(z.coerce.number().int().min(0).max(65535).default(8080)),
  // Checked here, so a bad key stops start-up before anything is created or migrated.
  CURSOR_SIGNING_KEYS: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      try {
        parseCursorKeys(value);
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: (err as Error).message.replace(/^CURSOR_SIGNING_KEYS: /, ''),
        });
      }
    }),
  MARKETPLACE_PROXY_SECRET: z.string().optional(),
  PREVIEW_REQUESTS_PER_MINUTE: positiveInt(30),
  AUTH_FAILURES_PER_MINUTE: positiveInt(60),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Bound on every search-engine call, so an unreachable cluster becomes a fast 503. */
  OPENSEARCH_TIMEOUT_MS: durationMs(5000),
  /** Deadline of every Postgres statement of the API (contract §20.3); past it → 503. */
  POSTGRES_TIMEOUT_MS: durationMs(5000),
  /** contract §16.6.2: how long a delivery's COMMIT may take to be confirmed (never cut sooner). */
  POSTGRES_COMMIT_TIMEOUT_MS: durationMs(DEFAULT_COMMIT_TIMEOUT_MS),
  /** Deadline of every Redis command; past it the in-process limiter takes over (contract §20.3). */
  REDIS_TIMEOUT_MS: durationMs(500),
  /** How long a local OpenSearch may take to become healthy (seconds). */
  OPENSEARCH_START_TIMEOUT: positiveInt(300),
  /** Shards and replicas of new index versions; unset: kept from the current index, else 1 / 0. */
  OPENSEARCH_SHARDS: optionalCount.refine((n) => n !== 0, 'at least 1'),
  OPENSEARCH_REPLICAS: optionalCount,
  /** Which proxies' X-Forwarded-For to believe (contract §19.6); unset: the socket's address. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((raw, ctx): TrustProxy => {
      const parsed = parseTrustProxy(raw);
      if (typeof parsed === 'object' && !Array.isArray(parsed) && parsed !== null) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
  /** Origins besides the service's own allowed to call /mcp (contract §21.3), comma-separated. */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const origins: string[] = [];
      const items = (raw ?? '').split(',').map(normalizeOrigin);
      for (const [at, item] of items.entries()) {
        if (item === '') continue;
        const origin = originOf(item);
        // Named by position: an entry with a password in it is not shown back.
        if (origin === undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `item ${at + 1} is not an origin (http(s)://host[:port], no path, no wildcard)`,
          });
        } else origins.push(origin);
      }
      return origins;
    }),
  /**
   * contract §21.11: the text block of one MCP tool result stays within this many bytes (a
   * search_opportunities page stops before the record that would pass it). 80,000 bytes is about
   * 20,000 tokens, under what common coding agents accept from one tool call.
   */
  MCP_MAX_RESULT_BYTES: decimal(z.coerce.number().int().min(1_000).default(80_000)),
  /**
   * Megabytes of record texts each API process keeps, so that a list page asks the engine for its
   * hits' digests only and takes the texts from memory (search/record-texts.ts). 0 turns it off:
   * every page then reads its records' texts from the engine.
   */
  RECORD_CACHE_MB: decimal(z.coerce.number().int().min(0).max(65_536).default(64)),
  /**
   * contract §22.2: where clients reach the service (`https://api.example.com`). Set, /llms.txt, the
   * OpenAPI servers entry and the /mcp own origin use it and never the Host header.
   */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .refine((u) => !/[?#]/.test(u), 'no query or fragment')
    // It is published (llms.txt, the OpenAPI servers entry): a user or password in it would be too.
    .refine((u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password), {
      message: 'no user or password',
    })
    .transform((u) => trimTrailing(u, '/'))
    .optional(),
  /**
   * contract §22.7.3: set, GET /metrics needs `Authorization: Bearer <token>` (401 without); unset, it
   * is public in local mode and not served (404) in production.
   */
  METRICS_TOKEN: z.string().optional(),
  /** contract §22.4: `production` creates no demo account, starts no local service. */
  NODE_ENV: z.string().optional(),
  /**
   * How many API processes share PORT on this host (app/processes.ts). 1: today's single process,
   * no cluster primary at all. `auto`: one per core the process may use. Node runs JavaScript on
   * one core, so an API-bound host needs one process per core it gives the API.
   */
  API_PROCESSES: z.preprocess(
    (v) => (v === 'auto' ? Math.min(64, availableParallelism()) : v),
    decimal(
      z.coerce
        .number({ error: API_PROCESSES_RANGE })
        .int(API_PROCESSES_RANGE)
        .min(1, API_PROCESSES_RANGE)
        .max(64, API_PROCESSES_RANGE)
        .default(1),
      API_PROCESSES_RANGE,
    ),
  ),
  /** contract §22.6: how long SIGTERM waits for in-flight requests before closing connections. */
  SHUTDOWN_GRACE_MS: durationMs(10_000, { min: 0, max: MAX_TIMER_MS - 60_000 }),
  /** An index left by a reindex is deleted by a later sync/reindex after this long. */
  RETIRED_INDEX_GRACE_MS: durationMs(600_000, { min: 0 }),
  /** contract §19.8: free but expensive reads (new_count, unseen_only, group_by...) in flight per account and process. */
  EXPENSIVE_IN_FLIGHT_PER_ACCOUNT: positiveInt(2),
  /**
   * contract §22.8: every API process tries the sync lock this often and indexes what the store has
   * that the index has not (search/index-follower.ts); 0 disables it.
   */
  SYNC_INTERVAL_MS: durationMs(5000, { min: 0 }),
  /**
   * contract §10.6: a rate-statistics entry drawn from fewer records keeps its count but reports
   * null statistics (1: no suppression).
   */
  MIN_AGGREGATE_COUNT: positiveInt(1),
  /** contract §19.10: a client whose request headers take longer in all is disconnected. */
  HTTP_HEADERS_TIMEOUT_MS: durationMs(10_000),
  /**
   * contract §19.10: a client whose whole request (headers and body) takes longer is disconnected;
   * at least HTTP_HEADERS_TIMEOUT_MS (Node refuses less; app/http-server.ts).
   */
  HTTP_REQUEST_TIMEOUT_MS: durationMs(30_000),
  /** Bound on one bulk or refresh call of the CLI's own client (seed, import, sync, reindex). */
  OPENSEARCH_BULK_TIMEOUT_MS: durationMs(120_000),
  /** TLS and authentication to managed services (config/connections.ts). */
  ...connectionEnv,
});

export type Env = z.infer<typeof EnvSchema>;

/** The variables config/connections.ts checks in combination. */
const ConnectionSchema = z.object({
  DATABASE_URL: EnvSchema.shape.DATABASE_URL,
  OPENSEARCH_URL: EnvSchema.shape.OPENSEARCH_URL,
  REDIS_URL: EnvSchema.shape.REDIS_URL,
  ...connectionEnv,
});

export class ConfigError extends Error {}

// contract §22.4: production never falls back to local services or a local signing key.
const REQUIRED_IN_PRODUCTION = ['CURSOR_SIGNING_KEYS', 'DATABASE_URL', 'OPENSEARCH_URL'] as const;

export function isProduction(env: Pick<Env, 'NODE_ENV'>): boolean {
  return env.NODE_ENV === 'production';
}

export function parseEnv(env: NodeJS.ProcessEnv = process.env): Env {
  // An empty value is unset, for every variable (.env.example: `NAME=` keeps the default); coerced,
  // it would be 0 (SYNC_INTERVAL_MS= turned the index follower off). So is one of spaces only.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value === undefined || value.trim() !== ''),
  );
  const result = EnvSchema.safeParse(given);
  const problems = result.success
    ? []
    : result.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`);
  // The connection settings' combinations are checked beside every other problem (a bad REDIS_URL
  // hid sslmode=prefer): on the variables that parsed, when others did not.
  const connections = result.success ? result : connectionSettingsOf(given, result.error.issues);
  // Every missing variable is named at once, beside any invalid one.
  if (env.NODE_ENV === 'production') {
    for (const name of REQUIRED_IN_PRODUCTION)
      if (!env[name]) problems.push(`${name}: required when NODE_ENV=production`);
  }
  if (connections.success)
    problems.push(...connectionProblems(connections.data, isProduction(given)));
  if (result.success && result.data.HTTP_REQUEST_TIMEOUT_MS < result.data.HTTP_HEADERS_TIMEOUT_MS)
    problems.push('HTTP_REQUEST_TIMEOUT_MS: must be at least HTTP_HEADERS_TIMEOUT_MS');
  if (!result.success || problems.length)
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return result.data;
}

/** The connection settings among the variables that parsed (the others are reported already). */
function connectionSettingsOf(given: NodeJS.ProcessEnv, issues: readonly z.core.$ZodIssue[]) {
  const broken = new Set(issues.map((i) => String(i.path[0])));
  const parsed = Object.fromEntries(Object.entries(given).filter(([name]) => !broken.has(name)));
  return ConnectionSchema.safeParse(parsed);
}

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/opportunities';
