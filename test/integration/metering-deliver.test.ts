import { randomUUID } from 'node:crypto';
import { RequestTicket } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import {
  createAccount,
  createKey,
  ledgerState,
  opportunityIds,
  type AccountFixture,
  errorOf,
} from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §15, §16: the ledger against a real Postgres.

let ctx: TestContext;
let meter: PgMeter;
beforeAll(async () => {
  ctx = await createTestContext();
  meter = new PgMeter(ctx.deps.pool);
});
afterAll(() => ctx.close());

async function subjectFor(fixture: AccountFixture, key: { allowance?: number } = {}) {
  const accountId = await createAccount(ctx.deps.pool, fixture);
  return { accountId, keyId: await createKey(ctx.deps.pool, accountId, key) };
}

describe('deliver', () => {
  it('uses the included allowance first, then prepaid credit: 3 included + 2 at 400', async () => {
    const s = await subjectFor({ allowanceOverride: 3, balanceMillicents: 1000 });
    const out = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(5));
    expect(out).toMatchObject({
      newCount: 5,
      includedNewCount: 3,
      paygNewCount: 2,
      chargeMillicents: 800,
    });
    expect(out.usage).toMatchObject({
      planId: 'free',
      allowance: 3,
      used: 5,
      remaining: 0,
      balanceMillicents: 200,
      prepaidCredits: 0,
    });
    expect(await ledgerState(ctx.deps.pool, s.accountId)).toEqual({
      balance: 200,
      deliveries: 5,
      deliveryCharges: 800,
      walletCharges: 800,
      walletEntries: 1,
      usage: { used: 5, included: 3, payg: 2 },
    });
    expect(await meter.snapshot(s)).toEqual(out.usage);
  });

  it('refuses the whole delivery with 402 when the rest cannot be covered, touching nothing', async () => {
    const s = await subjectFor({ allowanceOverride: 2, balanceMillicents: 700 });
    const first = opportunityIds(3);
    await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), first); // 2 included + 1 at 400 → balance 300
    const before = await ledgerState(ctx.deps.pool, s.accountId);
    // One repeat, two new: 800 needed, 300 left.
    const err = await errorOf(
      meter.deliver(s, RequestTicket.spentAlready(randomUUID()), [
        first[0] ?? '',
        ...opportunityIds(2),
      ]),
    );
    expect(err).toMatchObject({ code: 'insufficient_balance', status: 402 });
    expect(await ledgerState(ctx.deps.pool, s.accountId)).toEqual(before);
    expect(before).toMatchObject({ balance: 300, deliveries: 3 });
  });

  it('delivers repeats and duplicates within a page at no charge', async () => {
    const s = await subjectFor({ allowanceOverride: 0, balanceMillicents: 1200 });
    const ids = opportunityIds(2);
    const first = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), [
      ...ids,
      ids[0] ?? '',
    ]);
    expect(first).toMatchObject({ newCount: 2, paygNewCount: 2, chargeMillicents: 800 });
    const again = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), [
      ids[1] ?? '',
      ids[0] ?? '',
    ]);
    expect(again).toMatchObject({
      newCount: 0,
      includedNewCount: 0,
      paygNewCount: 0,
      chargeMillicents: 0,
    });
    expect(again.usage).toMatchObject({ used: 2, balanceMillicents: 400 });
    expect(await ledgerState(ctx.deps.pool, s.accountId)).toMatchObject({
      balance: 400,
      deliveries: 2,
      walletEntries: 1,
    });
  });

  it('consumes nothing for a zero-result page', async () => {
    const s = await subjectFor({ balanceMillicents: 400 });
    const out = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), []);
    expect(out).toMatchObject({ newCount: 0, chargeMillicents: 0 });
    expect(out.usage).toMatchObject({
      used: 0,
      allowance: 1000,
      remaining: 1000,
      balanceMillicents: 400,
    });
    expect(await ledgerState(ctx.deps.pool, s.accountId)).toMatchObject({
      deliveries: 0,
      walletEntries: 0,
    });
  });

  it('refuses a legacy entitlement past its allowance with 402 opportunity_quota_exhausted', async () => {
    const s = await subjectFor({
      billingModel: 'legacy_entitlement',
      allowanceOverride: 2,
      balanceMillicents: 100_000,
    });
    const out = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(2));
    expect(out.usage).toMatchObject({
      planId: null,
      allowance: 2,
      remaining: 0,
      balanceMillicents: 0,
    });
    const err = await errorOf(
      meter.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(1)),
    );
    expect(err).toMatchObject({ code: 'opportunity_quota_exhausted', status: 402 });
    expect(await ledgerState(ctx.deps.pool, s.accountId)).toMatchObject({
      balance: 100_000,
      deliveries: 2,
      walletEntries: 0,
    });
  });

  it('charges a legacy wallet for every new opportunity', async () => {
    const s = await subjectFor({
      billingModel: 'legacy_wallet',
      allowanceOverride: 50,
      balanceMillicents: 2000,
    });
    const out = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(3));
    expect(out).toMatchObject({ includedNewCount: 0, paygNewCount: 3, chargeMillicents: 1200 });
    expect(out.usage).toMatchObject({
      planId: null,
      allowance: 0,
      remaining: 0,
      used: 3,
      balanceMillicents: 800,
    });
  });

  it('holds a key to its own lower allowance; other keys keep the account allowance', async () => {
    const s = await subjectFor({ allowanceOverride: 10, balanceMillicents: 800 }, { allowance: 2 });
    const other = { accountId: s.accountId, keyId: await createKey(ctx.deps.pool, s.accountId) };
    const a = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(3));
    expect(a).toMatchObject({ includedNewCount: 2, paygNewCount: 1, chargeMillicents: 400 });
    const b = await meter.deliver(
      other,
      RequestTicket.spentAlready(randomUUID()),
      opportunityIds(3),
    );
    expect(b).toMatchObject({ includedNewCount: 3, paygNewCount: 0, chargeMillicents: 0 });
    expect(b.usage).toMatchObject({
      used: 6,
      includedUsed: 5,
      paygUsed: 1,
      remaining: 5,
      balanceMillicents: 400,
    });
  });

  it('includes nothing for an enterprise account without an allowance', async () => {
    const s = await subjectFor({ planId: 'enterprise', balanceMillicents: 400 });
    const out = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(1));
    expect(out).toMatchObject({ includedNewCount: 0, paygNewCount: 1, chargeMillicents: 400 });
    expect(out.usage).toMatchObject({ planId: 'enterprise', allowance: 0, allowanceUnset: true });
  });

  it('starts a new period from zero: an opportunity is new again next month', async () => {
    const s = await subjectFor({ allowanceOverride: 5 });
    const march = new PgMeter(ctx.deps.pool, { now: () => new Date('2025-03-31T23:59:59Z') });
    const april = new PgMeter(ctx.deps.pool, { now: () => new Date('2025-04-01T00:00:00Z') });
    const ids = opportunityIds(2);
    expect((await march.deliver(s, RequestTicket.spentAlready(randomUUID()), ids)).newCount).toBe(
      2,
    );
    const next = await april.deliver(s, RequestTicket.spentAlready(randomUUID()), ids);
    expect(next.newCount).toBe(2);
    expect(next.usage).toMatchObject({ used: 2, remaining: 3 });
    expect(next.usage.periodEnd.toISOString()).toBe('2025-05-01T00:00:00.000Z');
    expect((await march.snapshot(s)).used).toBe(2);
    expect((await april.snapshot(s)).used).toBe(2);
  });

  it('reads the new period when the one it remembered has ended (one meter, the clock moves)', async () => {
    // The meter guesses an account's period from its last call to save a round trip;
    // a guess made stale by the clock must never count the old period's deliveries.
    const s = await subjectFor({ allowanceOverride: 5 });
    let now = new Date('2025-06-30T23:59:59Z');
    const moving = new PgMeter(ctx.deps.pool, { now: () => now });
    const ids = opportunityIds(2);
    expect((await moving.deliver(s, RequestTicket.spentAlready(randomUUID()), ids)).newCount).toBe(
      2,
    );
    expect((await moving.deliver(s, RequestTicket.spentAlready(randomUUID()), ids)).newCount).toBe(
      0,
    );
    now = new Date('2025-07-01T00:00:00Z');
    const next = await moving.deliver(s, RequestTicket.spentAlready(randomUUID()), [
      ...ids,
      ...opportunityIds(1),
    ]);
    expect(next).toMatchObject({ newCount: 3, includedNewCount: 3, chargeMillicents: 0 });
    expect(next.usage).toMatchObject({ used: 3, remaining: 2 });
    expect(next.usage.periodStart.toISOString()).toBe('2025-07-01T00:00:00.000Z');
    expect((await moving.deliver(s, RequestTicket.spentAlready(randomUUID()), ids)).newCount).toBe(
      0,
    );
  });

  it('serves a page of repeats, whatever its rules, without writing anything', async () => {
    const s = await subjectFor({ allowanceOverride: 3, balanceMillicents: 2000 });
    const ids = opportunityIds(4);
    const first = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), ids);
    expect(first).toMatchObject({ newCount: 4, includedNewCount: 3, chargeMillicents: 400 });
    const before = await ledgerState(ctx.deps.pool, s.accountId);
    for (const rules of [{}, { newOnly: true }, { maxNew: 0 }]) {
      const locked = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), ids, rules);
      const unlocked = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), ids, rules);
      expect(unlocked).toEqual(locked);
    }
    expect((await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), ids)).usage).toEqual(
      await meter.snapshot(s),
    );
    expect(await ledgerState(ctx.deps.pool, s.accountId)).toEqual(before);
    // One new id among the repeats: delivered and charged under the lock as ever.
    const mixed = await meter.deliver(s, RequestTicket.spentAlready(randomUUID()), [
      ...ids,
      ...opportunityIds(1),
    ]);
    expect(mixed).toMatchObject({ newCount: 1, chargeMillicents: 400 });
    expect(mixed.usage).toMatchObject({ used: 5, balanceMillicents: 1200 });
  });

  it('does not wait for the locks of a charge for a page of repeats', async () => {
    const s = await subjectFor({ balanceMillicents: 0 });
    const ids = opportunityIds(2);
    const short = new PgMeter(ctx.deps.pool, { timeoutMs: 3000 });
    await short.deliver(s, RequestTicket.spentAlready(randomUUID()), ids);
    const holder = await ctx.deps.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [s.accountId]);
      await holder.query('SELECT 1 FROM metering_usage WHERE account_id = $1 FOR UPDATE', [
        s.accountId,
      ]);
      const out = await short.deliver(s, RequestTicket.spentAlready(randomUUID()), ids);
      expect(out).toMatchObject({ newCount: 0, chargeMillicents: 0, servedIds: ids });
      // Anything new is a charge: it waits for the period's counters, past the timeout a 503.
      const err = await errorOf(
        short.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(1)),
      );
      expect(err.code).toBe('metering_unavailable');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('bills a paid plan by its stored period', async () => {
    const s = await subjectFor({
      planId: 'builder',
      periodStart: new Date('2025-01-15T00:00:00Z'),
      periodEnd: new Date('2025-02-15T00:00:00Z'),
    });
    const jan = new PgMeter(ctx.deps.pool, { now: () => new Date('2025-02-01T00:00:00Z') });
    const out = await jan.deliver(s, RequestTicket.spentAlready(randomUUID()), opportunityIds(1));
    expect(out.usage).toMatchObject({ planId: 'builder', allowance: 25000, used: 1 });
    expect(out.usage.periodStart.toISOString()).toBe('2025-01-15T00:00:00.000Z');
    expect(out.usage.periodEnd.toISOString()).toBe('2025-02-15T00:00:00.000Z');
  });
});

describe('retention', () => {
  it('deletes the deliveries of periods ended more than 90 days ago, and only those', async () => {
    const s = await subjectFor({ allowanceOverride: 10 });
    const ids = opportunityIds(2);
    const at = (iso: string) => new PgMeter(ctx.deps.pool, { now: () => new Date(iso) });
    await at('2025-01-10T00:00:00Z').deliver(s, RequestTicket.spentAlready(randomUUID()), ids);
    await at('2025-02-10T00:00:00Z').deliver(s, RequestTicket.spentAlready(randomUUID()), ids);
    const periods = async () =>
      (
        await ctx.deps.pool.query<{ p: Date }>(
          'SELECT DISTINCT period_start AS p FROM metering_deliveries WHERE account_id = $1 ORDER BY p',
          [s.accountId],
        )
      ).rows.map((r) => r.p.toISOString().slice(0, 7));
    expect(await periods()).toEqual(['2025-01', '2025-02']);
    // January ended Feb 1: 90 days later is May 2. February ended Mar 1: kept until May 30.
    expect((await at('2025-05-01T00:00:00Z').retain()).deliveries).toBe(0);
    const run = await at('2025-05-03T00:00:00Z').retain();
    expect(run.ran).toBe(true);
    expect(run.deliveries).toBeGreaterThanOrEqual(2); // other tests' old periods too
    expect(await periods()).toEqual(['2025-02']);
    // The counters of the pruned period stay.
    expect((await at('2025-01-20T00:00:00Z').snapshot(s)).used).toBe(2);
  });

  it('lets one process at a time run it: another holding the lock makes it skip', async () => {
    const holder = await ctx.deps.pool.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('meter:retention'))`);
      expect(await meter.retain()).toEqual({ requestIds: 0, deliveries: 0, ran: false });
    } finally {
      await holder.query(`SELECT pg_advisory_unlock(hashtext('meter:retention'))`);
      holder.release();
    }
    expect((await meter.retain()).ran).toBe(true);
  });

  it('rides on a spent request id once an interval has passed, never sooner', async () => {
    const s = await subjectFor({});
    let now = new Date('2025-03-01T00:00:00Z');
    const clocked = new PgMeter(ctx.deps.pool, { now: () => now, retentionEveryMs: 60_000 });
    await clocked.spendRequestId(s, new RequestTicket(randomUUID()));
    expect(await clocked.lastRetentionRun).toBeNull();
    now = new Date('2025-03-01T00:01:00Z');
    await clocked.spendRequestId(s, new RequestTicket(randomUUID()));
    const run = clocked.lastRetentionRun;
    expect(await run).not.toBeNull();
    await clocked.spendRequestId(s, new RequestTicket(randomUUID()));
    expect(clocked.lastRetentionRun).toBe(run);
  });
});

describe('request ids (contract §17)', () => {
  it('spends an id once per account: a reuse is 409 duplicate_request_id', async () => {
    const s = await subjectFor({});
    const t = await subjectFor({});
    const id = `req-${randomUUID()}`;
    await meter.spendRequestId(s, new RequestTicket(id));
    const err = await errorOf(meter.spendRequestId(s, new RequestTicket(id)));
    expect(err).toMatchObject({ code: 'duplicate_request_id', status: 409 });
    await expect(meter.spendRequestId(t, new RequestTicket(id))).resolves.toBeUndefined();
  });

  it('prunes ids older than 7 days and only those', async () => {
    const s = await subjectFor({});
    await ctx.deps.pool.query(
      `INSERT INTO metering_request_ids (account_id, request_id, created_at)
       VALUES ($1, 'old', now() - interval '8 days'), ($1, 'recent', now() - interval '6 days')`,
      [s.accountId],
    );
    expect((await meter.retain()).requestIds).toBeGreaterThanOrEqual(1);
    await expect(meter.spendRequestId(s, new RequestTicket('old'))).resolves.toBeUndefined();
    await expect(
      errorOf(meter.spendRequestId(s, new RequestTicket('recent'))),
    ).resolves.toMatchObject({
      code: 'duplicate_request_id',
    });
  });
});

describe('snapshots', () => {
  it('reads several accounts in one statement, each as its own snapshot would', async () => {
    const used = await subjectFor({ allowanceOverride: 10, balanceMillicents: 4000 });
    const fresh = await subjectFor({ allowanceOverride: 3, balanceMillicents: 0 });
    await meter.deliver(used, RequestTicket.spentAlready(randomUUID()), opportunityIds(4));
    const unknown = randomUUID();
    const many = await meter.snapshots([used.accountId, fresh.accountId, unknown]);
    expect([...many.keys()].sort()).toEqual([used.accountId, fresh.accountId].sort());
    expect(many.get(used.accountId)).toEqual(await meter.snapshot(used));
    expect(many.get(fresh.accountId)).toEqual(await meter.snapshot(fresh));
    expect(many.get(used.accountId)).toMatchObject({ used: 4, remaining: 6 });
    expect(many.get(fresh.accountId)).toMatchObject({ used: 0, remaining: 3 });
    await expect(meter.snapshot({ accountId: unknown })).rejects.toThrow('not found');
  });
});
