import type { Pool } from 'pg';
import { openPool } from '../support/pg-pools';
import { RequestTicket, type PageDelivery } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { PRICE_PER_OPPORTUNITY_MILLICENTS } from '../../src/billing/plans';
import { ApiError } from '../../src/domain/errors';
import { createAccount, createKey, ledgerState, opportunityIds } from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §16.3, §16.7: two API processes charging ONE account at once, with the same ids, must
// never deadlock. One process sends the account's calls that arrive while its statement runs
// together (DELIVER_MANY: the statement holds the account's counters from its first call on); the
// other charges pages with a cut rule, which take the two round trips (READ_PAGE, then
// meter_charge). Before migration 012, meter_charge inserted its rows before it waited for the
// counters: when a batch then inserted one of those ids, each waited for the other, and Postgres
// failed one of them after deadlock_timeout (a 503 to the user). Every call must succeed, and each
// id be charged exactly once. Request ids are spent before the counters are locked, for the same
// reason: two statements spending the same ids must not each hold what the other waits for.

const ROUNDS = 100;
const IDS_A_ROUND = 8;

let ctx: TestContext;
const pools: Pool[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await ctx.close();
});

/** A meter of its own process: its own pool, its own held states and batches. */
function apiProcess(): PgMeter {
  const pool = openPool({ connectionString: ctx.databaseUrl, max: IDS_A_ROUND * 2 });
  pools.push(pool);
  return new PgMeter(pool, { retentionEveryMs: 0, timeoutMs: 10_000 });
}

/**
 * A paying account and two processes that both hold its billing state (each delivered once), so
 * that their calls without cut rules take the one round trip; and the ledger as it was then.
 */
async function oneAccountTwoProcesses() {
  const accountId = await createAccount(ctx.deps.pool, {
    allowanceOverride: 0,
    balanceMillicents: 1_000_000_000,
  });
  const subject = { accountId, keyId: await createKey(ctx.deps.pool, accountId) };
  const processes = [apiProcess(), apiProcess()] as const;
  for (const [i, meter] of processes.entries())
    await meter.deliver(subject, new RequestTicket(`warm-${i}`), opportunityIds(1));
  return { accountId, subject, processes, before: await ledgerState(ctx.deps.pool, accountId) };
}

it('two processes charging one account with the same ids: no deadlock, each id charged once', async () => {
  const { accountId, subject, processes, before } = await oneAccountTwoProcesses();
  const [batching, cutting] = processes;

  let newCount = 0;
  const sent = { calls: batching.oneTrips.calls, batches: batching.oneTrips.batches };
  for (let round = 0; round < ROUNDS; round++) {
    const ids = opportunityIds(IDS_A_ROUND);
    const reversed = [...ids].reverse();
    const ticket = (who: string, i: number) => new RequestTicket(`${who}-${round}-${i}`);
    // Made in one tick: the first alone, the rest together in the next statement.
    const batched = ids.map((id, i) => batching.deliver(subject, ticket('a', i), [id]));
    // Pairs of the same ids from the other end, each with a cut rule (max_new).
    const cut = reversed.map((id, i) =>
      cutting.deliver(subject, ticket('b', i), [id, reversed[i + 1] ?? id], { maxNew: 2 }),
    );
    const deliveries: PageDelivery[] = await Promise.all([...batched, ...cut]);
    const recorded = deliveries.reduce((sum, d) => sum + d.newCount, 0);
    expect(recorded).toBe(IDS_A_ROUND);
    newCount += recorded;
  }
  // The batching process did send calls together.
  expect(batching.oneTrips.calls - sent.calls).toBeGreaterThan(
    batching.oneTrips.batches - sent.batches,
  );

  const after = await ledgerState(ctx.deps.pool, accountId);
  expect(after.deliveries - before.deliveries).toBe(newCount);
  expect(after.usage.used - before.usage.used).toBe(newCount);
  expect(before.balance - after.balance).toBe(newCount * PRICE_PER_OPPORTUNITY_MILLICENTS);
  expect(after.walletCharges - before.walletCharges).toBe(before.balance - after.balance);
}, 120_000);

it('two processes reusing the same request ids for one account: one call per id, no deadlock', async () => {
  const { accountId, subject, processes, before } = await oneAccountTwoProcesses();
  const [first, second] = processes;

  let newCount = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const requestIds = Array.from({ length: IDS_A_ROUND }, (_, i) => `r-${round}-${i}`);
    // Both batch their calls; the second takes the request ids from the other end, so each
    // statement spends ids the other's statement spends too.
    const calls = [
      ...requestIds.map((id) => ({ meter: first, id })),
      ...[...requestIds].reverse().map((id) => ({ meter: second, id })),
    ].map(({ meter, id }) =>
      meter.deliver(subject, new RequestTicket(id), opportunityIds(2)).then(
        (d) => ({ id, delivery: d }),
        (err: unknown) => {
          if (err instanceof ApiError && err.code === 'duplicate_request_id') return { id };
          throw err;
        },
      ),
    );
    const settled = await Promise.all(calls);
    const served = settled.flatMap((s) => ('delivery' in s ? [s] : []));
    // Exactly one call of each request id went through (contract §17.3).
    expect(served.map((s) => s.id).sort()).toEqual([...requestIds].sort());
    newCount += served.reduce((sum, s) => sum + s.delivery.newCount, 0);
  }
  expect(newCount).toBe(ROUNDS * IDS_A_ROUND * 2);
  const after = await ledgerState(ctx.deps.pool, accountId);
  expect(after.deliveries - before.deliveries).toBe(newCount);
  expect(before.balance - after.balance).toBe(newCount * PRICE_PER_OPPORTUNITY_MILLICENTS);
}, 120_000);

// A process's first read of an account guesses no period, so it reads twice: the account, then the
// usage and the page's new ids for the period it found. A charge another process committed between
// the two was shown as the balance from before it beside the Used from after it (a repeat answered
// Used 1 with the 400 millicents that delivery had taken).
it("a process's first read of an account shows its balance and usage of one moment", async () => {
  const accountId = await createAccount(ctx.deps.pool, {
    allowanceOverride: 0,
    balanceMillicents: 2 * PRICE_PER_OPPORTUNITY_MILLICENTS,
  });
  const subject = { accountId, keyId: await createKey(ctx.deps.pool, accountId) };
  const [id] = opportunityIds(1);
  const other = apiProcess();
  // The reading process's pool lets the other process charge the same id between its two reads.
  const pool = openPool({ connectionString: ctx.databaseUrl, max: 2 });
  pools.push(pool);
  let reads = 0;
  const between: Pool = Object.create(pool) as Pool;
  between.query = (async (...args: Parameters<Pool['query']>) => {
    if (++reads === 2) {
      await other.deliver(subject, new RequestTicket('other-process'), [id ?? '']);
    }
    return (pool.query as (...a: unknown[]) => unknown)(...args);
  }) as Pool['query'];
  const reader = new PgMeter(between, { retentionEveryMs: 0, timeoutMs: 10_000 });
  const seen = await reader.deliver(subject, new RequestTicket('first-read'), [id ?? '']);
  expect(reads).toBeGreaterThanOrEqual(2);
  expect(seen.newCount).toBe(0);
  expect(seen.usage.used).toBe(1);
  expect(seen.usage.balanceMillicents).toBe(PRICE_PER_OPPORTUNITY_MILLICENTS);
});
