import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { openPool } from '../support/pg-pools';
import { RequestTicket, type DeliveryOutcome } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { ApiError } from '../../src/domain/errors';
import { createAccount, createKey, ledgerState, opportunityIds } from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { topUpAccount } from '../../src/store/account-repo';

// Dozens of parallel requests over several keys of one account never
// over-deliver past allowance plus balance and never double charge (contract §16.4, §16.7).

let ctx: TestContext;
let pool: Pool;
let meter: PgMeter;
beforeAll(async () => {
  ctx = await createTestContext();
  // Enough connections that the 40 calls really contend for the account lock in Postgres.
  pool = openPool({ connectionString: ctx.databaseUrl, max: 40 });
  meter = new PgMeter(pool);
});
afterAll(async () => {
  await pool.end();
  await ctx.close();
});

/** A deterministic spread of overlapping pages: call i takes `size` ids from the shared pool. */
function pages(pool: string[], calls: number, size: number): string[][] {
  return Array.from({ length: calls }, (_, i) =>
    Array.from({ length: size }, (_, j) => pool[(i * 7 + j * 3) % pool.length] ?? ''),
  );
}

async function runAll(subjects: { accountId: string; keyId: string }[], idPages: string[][]) {
  const settled = await Promise.allSettled(
    idPages.map((ids, i) =>
      meter.deliver(
        subjects[i % subjects.length] ?? { accountId: '', keyId: '' },
        RequestTicket.spentAlready(randomUUID()),
        ids,
      ),
    ),
  );
  const ok: DeliveryOutcome[] = [];
  const refused: ApiError[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') ok.push(s.value);
    else if (s.reason instanceof ApiError && s.reason.code === 'insufficient_balance')
      refused.push(s.reason);
    else throw s.reason;
  }
  return { ok, refused };
}

async function deliveredBy(accountId: string) {
  const { rows } = await ctx.deps.pool.query<{
    opportunity_id: string;
    key_id: string;
    charge_millicents: number;
  }>(
    'SELECT opportunity_id, key_id, charge_millicents FROM metering_deliveries WHERE account_id = $1',
    [accountId],
  );
  return rows;
}

describe('concurrent deliveries of one account', () => {
  it('never over-delivers past allowance + floor(balance/400), and charges exactly', async () => {
    const allowance = 10;
    const balance = 4100; // 10 credits and 100 millicents that buy nothing
    const accountId = await createAccount(ctx.deps.pool, {
      allowanceOverride: allowance,
      balanceMillicents: balance,
    });
    const tightKey = await createKey(ctx.deps.pool, accountId, { allowance: 3 });
    const keys = [
      tightKey,
      ...(await Promise.all([1, 2, 3].map(() => createKey(ctx.deps.pool, accountId)))),
    ];
    const subjects = keys.map((keyId) => ({ accountId, keyId }));
    const idPool = opportunityIds(30);

    const { ok, refused } = await runAll(subjects, pages(idPool, 40, 5));
    expect(ok.length + refused.length).toBe(40);
    expect(refused.length).toBeGreaterThan(0); // the budget was tight enough to refuse some

    const state = await ledgerState(ctx.deps.pool, accountId);
    const rows = await deliveredBy(accountId);
    const cap = allowance + Math.floor(balance / 400);
    expect(state.deliveries).toBeLessThanOrEqual(cap);
    // Every delivered id is recorded once and was new to exactly one successful call.
    expect(new Set(rows.map((r) => r.opportunity_id)).size).toBe(rows.length);
    expect(ok.reduce((n, o) => n + o.newCount, 0)).toBe(rows.length);
    rows.forEach((r) => expect(idPool).toContain(r.opportunity_id));
    // The sum of charges equals the wallet's decrease, in every record of it.
    const charged = ok.reduce((n, o) => n + o.chargeMillicents, 0);
    expect(balance - state.balance).toBe(charged);
    expect(state.walletCharges).toBe(charged);
    expect(state.deliveryCharges).toBe(charged);
    expect(state.balance).toBeGreaterThanOrEqual(0);
    // Counters agree with the rows; allowances held for the account and for the tight key.
    expect(state.usage.used).toBe(rows.length);
    expect(state.usage.included).toBe(rows.filter((r) => r.charge_millicents === 0).length);
    expect(state.usage.included).toBeLessThanOrEqual(allowance);
    expect(
      rows.filter((r) => r.key_id === tightKey && r.charge_millicents === 0).length,
    ).toBeLessThanOrEqual(3);
    expect(state.usage.payg * 400).toBe(charged);
    // The last word agrees with the ledger.
    expect(await meter.snapshot({ accountId })).toMatchObject({
      used: rows.length,
      balanceMillicents: state.balance,
    });
  });

  it('with room for everything, delivers the union of the pages exactly once', async () => {
    const accountId = await createAccount(ctx.deps.pool, {
      allowanceOverride: 12,
      balanceMillicents: 100_000,
    });
    const keys = await Promise.all([1, 2, 3, 4].map(() => createKey(ctx.deps.pool, accountId)));
    const idPool = opportunityIds(25);
    const idPages = pages(idPool, 40, 6);
    const union = new Set(idPages.flat());

    const { ok, refused } = await runAll(
      keys.map((keyId) => ({ accountId, keyId })),
      idPages,
    );
    expect(refused).toHaveLength(0);
    expect(ok.reduce((n, o) => n + o.newCount, 0)).toBe(union.size);
    expect(ok.reduce((n, o) => n + o.includedNewCount, 0)).toBe(12);
    const state = await ledgerState(ctx.deps.pool, accountId);
    expect(state).toMatchObject({
      deliveries: union.size,
      balance: 100_000 - (union.size - 12) * 400,
      walletCharges: (union.size - 12) * 400,
      usage: { used: union.size, included: 12, payg: union.size - 12 },
    });
  });
});

// contract §16.3: purchased credit is added, never set. Top-ups racing PAYG charges of the same
// account: every one of them is kept (a set balance would undo the charges made meanwhile), and the
// wallet ledger adds up to the balance.
describe('top-ups while the account is charged', () => {
  it('adds every top-up and every charge exactly, in the balance and the wallet ledger', async () => {
    const accountId = await createAccount(ctx.deps.pool, {
      allowanceOverride: 0,
      balanceMillicents: 4000,
    });
    const keyId = await createKey(ctx.deps.pool, accountId);
    const charges = Array.from({ length: 20 }, () =>
      meter.deliver(
        { accountId, keyId },
        RequestTicket.spentAlready(randomUUID()),
        opportunityIds(2),
      ),
    );
    const topUps = Array.from({ length: 10 }, () => topUpAccount(pool, accountId, 1000));
    const settled = await Promise.allSettled([...charges, ...topUps]);
    const delivered = settled
      .slice(0, charges.length)
      .filter((s) => s.status === 'fulfilled').length;
    for (const s of settled.slice(charges.length)) expect(s.status).toBe('fulfilled');
    const state = await ledgerState(ctx.deps.pool, accountId);
    expect(state.deliveries).toBe(delivered * 2);
    expect(state.walletCharges).toBe(delivered * 800);
    expect(state.balance).toBe(4000 + 10 * 1000 - delivered * 800);
    const { rows } = await ctx.deps.pool.query<{ credits: string; n: string }>(
      `SELECT coalesce(sum(amount_millicents), 0)::text AS credits, count(*)::text AS n
         FROM wallet_ledger WHERE account_id = $1 AND kind = 'credit'`,
      [accountId],
    );
    expect(rows[0]).toEqual({ credits: '10000', n: '10' });
  });

  it('refuses a top-up that is not a positive integer, or would pass 2^53 - 1, changing nothing', async () => {
    const accountId = await createAccount(ctx.deps.pool, { balanceMillicents: 5 });
    for (const amount of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      await expect(topUpAccount(pool, accountId, amount)).rejects.toThrow('positive integer');
    }
    await expect(topUpAccount(pool, accountId, Number.MAX_SAFE_INTEGER)).rejects.toThrow(
      'would pass',
    );
    expect((await ledgerState(ctx.deps.pool, accountId)).balance).toBe(5);
    expect(await topUpAccount(pool, '00000000-0000-4000-8000-000000000000', 1)).toBeNull();
  });
});
