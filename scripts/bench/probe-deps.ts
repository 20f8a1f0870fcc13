import type { Pool } from 'pg';
import { bootstrap } from '../../src/bootstrap';
import { parseEnv } from '../../src/config';
import type { AppDeps } from '../../src/service/context';
import { assertFullJit } from './machine';

// What the benches and their one-process probes share: the service's connections from the
// environment (DATABASE_URL, OPENSEARCH_URL), with a logger that says nothing, on an engine whose
// figures are its own (assertFullJit).

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export async function probeDeps(
  env: Record<string, string | undefined> = process.env,
): Promise<AppDeps> {
  const deps = await bootstrap({
    env: parseEnv({ ...env, LOG_LEVEL: 'error' }),
    logger: quiet,
  });
  await assertFullJit(deps.search);
  return deps;
}

/** The `n` job families with the most live records, largest first. */
export async function largestFamilies(pool: Pool, n: number): Promise<string[]> {
  const { rows } = await pool.query<{ job_family: string }>(
    `SELECT job_family FROM opportunities WHERE deleted_at IS NULL AND job_family IS NOT NULL
      GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $1`,
    [n],
  );
  return rows.map((r) => r.job_family);
}
