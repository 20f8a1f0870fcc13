// Metering cost per request, run by hand against a scratch database:
//   npx tsx scripts/bench-metering.ts [--calls 500] [--ids 25] [--concurrency 8]
// Creates `bench_metering_<random>` next to BENCH_DATABASE_ADMIN_URL (default the local
// postgres), migrates it, measures, prints one JSON object and drops the database.
import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { RequestTicket, type BillingSubject } from '../src/billing/metering';
import { PgMeter } from '../src/billing/pg-meter';
import { createPool, ensureDatabase } from '../src/store/db';
import { migrate } from '../src/store/migrate';

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const CALLS = flag('calls', 500);
const IDS = flag('ids', 25);
const CONCURRENCY = flag('concurrency', 8);

interface Figures {
  calls: number;
  median_ms: number;
  p95_ms: number;
  p99_ms: number;
  mean_ms: number;
}

function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const mean = sorted.reduce((s, n) => s + n, 0) / Math.max(1, sorted.length);
  return {
    calls: sorted.length,
    median_ms: round(at(0.5)),
    p95_ms: round(at(0.95)),
    p99_ms: round(at(0.99)),
    mean_ms: round(mean),
  };
}

async function timed(calls: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await op(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return samples;
}

async function subject(pool: Pool): Promise<BillingSubject> {
  // A paid account with room for every delivery, so each call commits (the common case).
  const account = await pool.query<{ id: string }>(
    `INSERT INTO accounts (plan_id, allowance_override, balance_millicents)
     VALUES ('builder', 1000000, 1000000000) RETURNING id`,
  );
  const accountId = account.rows[0]?.id ?? '';
  const secret = randomBytes(24).toString('hex');
  const key = await pool.query<{ id: string }>(
    `INSERT INTO api_keys (account_id, prefix, key_hash) VALUES ($1, $2, $3) RETURNING id`,
    [accountId, secret.slice(0, 12), secret],
  );
  return { accountId, keyId: key.rows[0]?.id ?? '' };
}

/** Pages of IDS ids: `mixed` half already delivered (repeats) and half new; `repeats` only old. */
function pageMaker() {
  const delivered: string[] = [];
  const pick = () => delivered[Math.floor(Math.random() * delivered.length)] ?? randomUUID();
  return {
    mixed(): string[] {
      const repeats = delivered.length >= IDS ? Math.floor(IDS / 2) : 0;
      const fresh = Array.from({ length: IDS - repeats }, () => randomUUID());
      const page = [...Array.from({ length: repeats }, pick), ...fresh];
      // Every page made is delivered before the next is made.
      delivered.push(...fresh);
      return page;
    },
    repeats: (): string[] => Array.from({ length: IDS }, pick),
  };
}

async function main(): Promise<void> {
  const admin = new URL(
    process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const name = `bench_metering_${randomBytes(4).toString('hex')}`;
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  const pool = createPool(url.toString(), CONCURRENCY + 2);
  try {
    await migrate(pool);
    const meter = new PgMeter(pool, { retentionEveryMs: 0 });
    const solo = await subject(pool);
    const pages = pageMaker();
    await timed(50, () => meter.deliver(solo, new RequestTicket(randomUUID()), pages.mixed())); // warm-up

    const roundTrip = await timed(CALLS, () => pool.query('SELECT 1'));
    const spend = await timed(CALLS, () =>
      meter.spendRequestId(solo, new RequestTicket(randomUUID())),
    );
    const deliver = await timed(CALLS, () =>
      meter.deliver(solo, new RequestTicket(randomUUID()), pages.mixed()),
    );
    const repeatsOnly = await timed(CALLS, () =>
      meter.deliver(solo, new RequestTicket(randomUUID()), pages.repeats()),
    );
    const empty = await timed(CALLS, () =>
      meter.deliver(solo, new RequestTicket(randomUUID()), []),
    );
    const snapshot = await timed(CALLS, () => meter.snapshot(solo));

    // One account hammered by CONCURRENCY callers: the account lock makes them wait their turn.
    const shared = await subject(pool);
    const sharedPages = pageMaker();
    const contended: number[] = [];
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = 0; i < Math.ceil(CALLS / CONCURRENCY); i++) {
          contended.push(
            ...(await timed(1, () =>
              meter.deliver(shared, new RequestTicket(randomUUID()), sharedPages.mixed()),
            )),
          );
        }
      }),
    );
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    const result = {
      database: name,
      ids_per_call: IDS,
      postgres_round_trip_select_1: figures(roundTrip),
      spend_request_id: figures(spend),
      deliver_half_repeats: figures(deliver),
      deliver_all_repeats: figures(repeatsOnly),
      deliver_empty_page: figures(empty),
      snapshot: figures(snapshot),
      metered_list_request_overhead_median_ms:
        figures(spend).median_ms + figures(deliver).median_ms,
      deliver_one_account_concurrent: {
        concurrency: CONCURRENCY,
        ...figures(contended),
        deliveries_per_second: Math.round(contended.length / wallSeconds),
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await pool.end();
    const drop = new Pool({ connectionString: admin.toString(), max: 1 });
    await drop.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await drop.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
