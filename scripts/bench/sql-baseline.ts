import { Pool } from 'pg';
import type { LoadResult } from './load';

// The Postgres baseline for counts: the same filters as SQL on the canonical table, with an index
// that serves them (family, country, remote), driven by as many concurrent clients as autocannon
// has connections.

/** Its own connection: building the index over 1,000,000 rows outlasts the API's statement timeout. */
export async function ensureBaselineIndex(databaseUrl: string): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query(
      `CREATE INDEX IF NOT EXISTS bench_count_family_country_remote ON opportunities
         (job_family, (record->'location'->>'country'), (record->'location'->>'remote'))
       WHERE deleted_at IS NULL`,
    );
    await pool.query('ANALYZE opportunities');
  } finally {
    await pool.end();
  }
}

export async function sqlCount(
  pool: Pool,
  mix: { sql: { where: string; params: unknown[] } },
): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM opportunities WHERE ${mix.sql.where}`,
    mix.sql.params,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function countBaseline(
  databaseUrl: string,
  mixes: Array<{ sql: { where: string; params: unknown[] } }>,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const pool = new Pool({ connectionString: databaseUrl, max: connections });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) {
        const mix = mixes[next++ % mixes.length];
        if (!mix) return;
        const t = performance.now();
        try {
          await sqlCount(pool, mix);
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors,
  };
}
