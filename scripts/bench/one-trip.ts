// The one-round-trip charge against the two round trips, on ONE account from 16 callers, in
// process (no HTTP, no search engine: only the meter and Postgres), run by hand:
//   npx tsx scripts/bench/one-trip.ts [--calls 600] [--rounds 3]
// Creates `bench_one_trip_<random>` next to BENCH_DATABASE_ADMIN_URL (default the local postgres),
// migrates it, and alternates the two paths on pages of new ids (1 and 25 ids a page): the two
// round trips are the same meter given max_new ≥ the page (a rule that cuts nothing, but takes
// the read-then-charge path). Prints one JSON line per block: calls a second, this process's CPU
// and Postgres's (its backends' CPU, from /proc) per call. Drops the database at the end.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RequestTicket, type BillingSubject } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { createPool, ensureDatabase } from '../../src/store/db';
import { migrate } from '../../src/store/migrate';

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const CALLS = flag('calls', 600);
const ROUNDS = flag('rounds', 3);
const CALLERS = 16;
/** /proc's clock ticks a second (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** CPU time (ms) the processes have used so far; one that has gone counts nothing. */
function cpuMs(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      // Gone.
    }
  }
  return total;
}

async function main(): Promise<void> {
  const admin = new URL(
    process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const name = `bench_one_trip_${randomBytes(4).toString('hex')}`;
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  const pool = createPool(url.toString(), CALLERS, 10_000);
  try {
    await migrate(pool);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO accounts (plan_id, allowance_override, balance_millicents)
       VALUES ('builder', 100000000, 1000000000) RETURNING id`,
    );
    const accountId = rows[0]?.id ?? '';
    const key = await pool.query<{ id: string }>(
      `INSERT INTO api_keys (account_id, prefix, key_hash) VALUES ($1, 'bench', $2) RETURNING id`,
      [accountId, randomUUID()],
    );
    const subject: BillingSubject = { accountId, keyId: key.rows[0]?.id ?? '' };
    const meter = new PgMeter(pool, { retentionEveryMs: 0 });
    // The account's billing state is held from here on; every connection of the pool is open.
    await meter.deliver(subject, new RequestTicket(randomUUID()), [randomUUID()]);
    await Promise.all(Array.from({ length: CALLERS }, () => pool.query('SELECT pg_sleep(0.01)')));
    const pids = (
      await pool.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
      )
    ).rows.map((r) => r.pid);

    for (const ids of [1, 25]) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const path of ['two round trips', 'one round trip'] as const) {
          const rules = path === 'two round trips' ? { maxNew: ids } : {};
          const pg0 = cpuMs(pids);
          const cpu0 = process.cpuUsage();
          const t0 = process.hrtime.bigint();
          let started = 0;
          await Promise.all(
            Array.from({ length: CALLERS }, async () => {
              while (started++ < CALLS) {
                const page = Array.from({ length: ids }, () => randomUUID());
                await meter.deliver(subject, new RequestTicket(randomUUID()), page, rules);
              }
            }),
          );
          const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
          const cpu = process.cpuUsage(cpu0);
          const round3 = (n: number) => Math.round(n * 1000) / 1000;
          console.log(
            JSON.stringify({
              ids_per_page: ids,
              path,
              round,
              calls_per_second: Math.round(CALLS / seconds),
              node_cpu_ms_per_call: round3((cpu.user + cpu.system) / 1000 / CALLS),
              postgres_cpu_ms_per_call: round3((cpuMs(pids) - pg0) / CALLS),
            }),
          );
        }
      }
    }
  } finally {
    await pool.end();
    const adminPool = createPool(admin.toString(), 1);
    await adminPool.query(`DROP DATABASE IF EXISTS "${name}"`).catch(() => undefined);
    await adminPool.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
