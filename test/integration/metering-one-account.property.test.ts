import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Pool } from 'pg';
import { openPool } from '../support/pg-pools';
import { RequestTicket, type PageDelivery } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { ApiError } from '../../src/domain/errors';
import { createAccount, createKey, ledgerState, opportunityIds } from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { StatementRecorder } from '../support/pg-statements';
import { fuzzSettings } from '../support/fuzz/settings';

// contract §16.3, §16.4, §16.7, §17.3: one account hammered from many connections at once, with
// overlapping pages, several keys (one with its own allowance) and request ids reused by
// concurrent calls. Whatever the interleaving, the ledger holds exactly what the answers say:
// each id recorded once in the period and charged once, counters equal to the rows, charges equal
// to the wallet's decrease, never a negative balance, a refused or duplicate call recording
// nothing, and one call per request id that is not a 409. In about half the runs the first call
// goes alone, so that the meter holds the account's billing state and the others without cut
// rules take the one round trip, several in one statement (DELIVER_MANY); otherwise all read the
// account first. FUZZ_RUNS and FUZZ_SEED replay or widen it, as they do every property (`npm run
// fuzz` runs it with the others; the seed is printed).

const {
  runs: RUNS,
  seed: SEED,
  timeout: TIMEOUT,
} = fuzzSettings({ runs: 12, seed: 20261125, msPerRun: 20_000 });
const CONNECTIONS = 24;

let ctx: TestContext;
let pool: Pool;
let meter: PgMeter;
const recorder = new StatementRecorder();
beforeAll(async () => {
  recorder.install();
  process.stderr.write(`[one-account property] seed ${SEED}, ${RUNS} runs\n`);
  ctx = await createTestContext({ POSTGRES_TIMEOUT_MS: '60000' });
  pool = openPool({ connectionString: ctx.databaseUrl, max: CONNECTIONS });
  meter = new PgMeter(pool, { timeoutMs: 60_000, retentionEveryMs: 0 });
});
afterAll(async () => {
  recorder.uninstall();
  await pool.end();
  await ctx.close();
});

interface Scenario {
  allowance: number;
  balance: number;
  /** Each key's own allowance (null: none). */
  keyAllowances: (number | null)[];
  poolSize: number;
  /**
   * The first call alone, before the others: the meter then holds the account's billing state, so
   * the calls without cut rules take the one round trip, several of them in one statement
   * (DELIVER_MANY). All at once, every call reads the account first (the two round trips).
   */
  firstAlone: boolean;
  calls: { key: number; picks: number[]; newOnly: boolean; reuse: number | null }[];
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    allowance: fc.integer({ min: 0, max: 12 }),
    // Up to 25 credits, and odd amounts that buy nothing.
    balance: fc.integer({ min: 0, max: 10_000 }),
    keyAllowances: fc.array(fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }), {
      minLength: 1,
      maxLength: 4,
    }),
    poolSize: fc.integer({ min: 3, max: 40 }),
    firstAlone: fc.boolean(),
  })
  .chain((base) =>
    fc
      .array(
        fc.record({
          key: fc.nat({ max: base.keyAllowances.length - 1 }),
          picks: fc.array(fc.nat({ max: base.poolSize - 1 }), { minLength: 1, maxLength: 8 }),
          newOnly: fc.boolean(),
          // Reuses the request id of an earlier call (concurrent: one of them is not a 409).
          reuse: fc.option(fc.nat({ max: 100 }), { nil: null, freq: 8 }),
        }),
        { minLength: 8, maxLength: 48 },
      )
      .map((calls) => ({ ...base, calls })),
  );

type Settled =
  | { kind: 'ok'; requestId: string; delivery: PageDelivery; page: string[] }
  | { kind: 'refused'; requestId: string; code: string }
  | { kind: 'duplicate'; requestId: string };

async function run(s: Scenario): Promise<void> {
  const accountId = await createAccount(ctx.deps.pool, {
    allowanceOverride: s.allowance,
    balanceMillicents: s.balance,
  });
  const keys = await Promise.all(
    s.keyAllowances.map((allowance) => createKey(ctx.deps.pool, accountId, { allowance })),
  );
  const ids = opportunityIds(s.poolSize);
  const requestIds: string[] = [];
  for (const [i, call] of s.calls.entries()) {
    const reused = call.reuse === null || i === 0 ? undefined : requestIds[call.reuse % i];
    requestIds.push(reused ?? randomUUID());
  }

  const settle = async (call: Scenario['calls'][number], i: number): Promise<Settled> => {
    const requestId = requestIds[i] ?? '';
    const page = call.picks.map((p) => ids[p] ?? '');
    try {
      const delivery = await meter.deliver(
        { accountId, keyId: keys[call.key] ?? '' },
        new RequestTicket(requestId),
        page,
        call.newOnly ? { newOnly: true } : {},
      );
      return { kind: 'ok', requestId, delivery, page };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'duplicate_request_id') return { kind: 'duplicate', requestId };
      expect(err.code).toBe('insufficient_balance');
      return { kind: 'refused', requestId, code: err.code };
    }
  };
  const settled: Settled[] = [];
  if (s.firstAlone && s.calls[0]) settled.push(await settle(s.calls[0], 0));
  const skip = settled.length;
  settled.push(...(await Promise.all(s.calls.slice(skip).map((c, i) => settle(c, i + skip)))));

  const { rows } = await ctx.deps.pool.query<{
    opportunity_id: string;
    key_id: string;
    request_id: string;
    charge_millicents: number;
  }>(
    `SELECT opportunity_id, key_id, request_id, charge_millicents FROM metering_deliveries
      WHERE account_id = $1`,
    [accountId],
  );
  const ledger = await pool.query<{ request_id: string }>(
    `SELECT request_id FROM wallet_ledger WHERE account_id = $1 AND kind = 'charge'`,
    [accountId],
  );
  const state = await ledgerState(ctx.deps.pool, accountId);
  const ok = settled.flatMap((c) => (c.kind === 'ok' ? [c] : []));
  const charged = ok.reduce((n, c) => n + c.delivery.chargeMillicents, 0);

  // Each id once in the period, and each recorded id new to exactly one answered call.
  expect(new Set(rows.map((r) => r.opportunity_id)).size).toBe(rows.length);
  expect(ok.reduce((n, c) => n + c.delivery.newCount, 0)).toBe(rows.length);
  for (const c of ok) {
    const mine = rows.filter((r) => r.request_id === c.requestId);
    expect(mine).toHaveLength(c.delivery.newCount);
    expect(mine.filter((r) => r.charge_millicents > 0)).toHaveLength(c.delivery.paygNewCount);
    expect(c.delivery.includedNewCount + c.delivery.paygNewCount).toBe(c.delivery.newCount);
    expect(c.delivery.chargeMillicents).toBe(c.delivery.paygNewCount * 400);
    // What is served was on the page; unseen_only serves only what this call recorded.
    c.delivery.servedIds.forEach((id) => expect(c.page).toContain(id));
    if (s.calls[settled.indexOf(c)]?.newOnly) {
      expect(new Set(c.delivery.servedIds)).toEqual(new Set(mine.map((r) => r.opportunity_id)));
    }
  }
  // A refused or duplicate call recorded nothing and charged nothing.
  const answered = new Set(ok.map((c) => c.requestId));
  for (const c of settled.filter((x) => x.kind !== 'ok')) {
    if (answered.has(c.requestId)) continue; // its id was spent by the call that was answered
    expect(rows.filter((r) => r.request_id === c.requestId)).toHaveLength(0);
    expect(ledger.rows.filter((r) => r.request_id === c.requestId)).toHaveLength(0);
  }
  // One call per request id is not a 409; each of the others is.
  for (const id of new Set(requestIds)) {
    const calls = settled.filter((c) => c.requestId === id);
    expect(calls.filter((c) => c.kind !== 'duplicate')).toHaveLength(1);
  }
  // Money: charges = the wallet's decrease = the ledger's entries = the paid rows; never negative.
  expect(s.balance - state.balance).toBe(charged);
  expect(state.walletCharges).toBe(charged);
  expect(state.deliveryCharges).toBe(charged);
  expect(state.balance).toBeGreaterThanOrEqual(0);
  // Counters equal the rows, and the allowances held, for the account and for each key.
  expect(state.usage.used).toBe(rows.length);
  expect(state.usage.included).toBe(rows.filter((r) => r.charge_millicents === 0).length);
  expect(state.usage.payg * 400).toBe(charged);
  expect(state.usage.included).toBeLessThanOrEqual(s.allowance);
  keys.forEach((keyId, k) => {
    const allowance = s.keyAllowances[k];
    const included = rows.filter((r) => r.key_id === keyId && r.charge_millicents === 0).length;
    if (allowance !== null && allowance !== undefined)
      expect(included).toBeLessThanOrEqual(allowance);
  });
  // Exact allowance: a call is refused only when its new records outnumber the included
  // allowance left plus the credits, so a refused page of k distinct ids left at most k - 1 of the
  // allowance unused when it was decided (usage only grows after). With no key of its own
  // limiting it, the account's allowance ends used up to that: fully, after a refused single id.
  // (A refused page of two ids against an allowance of one and no balance leaves the one unused.)
  const refusedSizes = settled.flatMap((c, i) =>
    c.kind === 'refused' ? [new Set(s.calls[i]?.picks).size] : [],
  );
  if (refusedSizes.length > 0 && s.keyAllowances.every((a) => a === null)) {
    const smallest = Math.min(...refusedSizes);
    expect(state.usage.included).toBeGreaterThanOrEqual(s.allowance - (smallest - 1));
  }
  expect(await meter.snapshot({ accountId })).toMatchObject({
    used: rows.length,
    balanceMillicents: state.balance,
  });
}

it(
  'one account from many connections: every ledger invariant holds exactly',
  async () => {
    const before = { calls: meter.oneTrips.calls, batches: meter.oneTrips.batches };
    const statements = await recorder.during(() =>
      fc.assert(fc.asyncProperty(scenario, run), { seed: SEED, numRuns: RUNS, verbose: 1 }),
    );
    // The runs took both paths: the one round trip and the two.
    expect(statements.filter((s) => s.includes('meter_deliver')).length).toBeGreaterThan(0);
    expect(statements.filter((s) => s.includes('meter_charge(')).length).toBeGreaterThan(0);
    // And the one round trip sent several calls in one statement (DELIVER_MANY).
    expect(meter.oneTrips.calls - before.calls).toBeGreaterThan(
      meter.oneTrips.batches - before.batches,
    );
  },
  TIMEOUT,
);
