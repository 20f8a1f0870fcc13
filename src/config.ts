import { z } from 'zod';

// Configuration is read once, from the environment, by this schema (decisions 10). A bad value
// stops start-up with a message naming the variable.

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const EnvSchema = z.object({
  DATABASE_URL: optionalUrl,
  OPENSEARCH_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  CURSOR_SIGNING_KEYS: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  MARKETPLACE_PROXY_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  PREVIEW_REQUESTS_PER_MINUTE: positiveInt(30),
  AUTH_FAILURES_PER_MINUTE: positiveInt(60),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Bound on every search-engine call, so an unreachable cluster becomes a fast 503. */
  OPENSEARCH_TIMEOUT_MS: positiveInt(5000),
  /** How long a local OpenSearch may take to become healthy (seconds; issue 11). */
  OPENSEARCH_START_TIMEOUT: positiveInt(300),
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset, it is public. */
  METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
});

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

export function parseEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues
      .map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`)
      .join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  return result.data;
}

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/opportunities';
