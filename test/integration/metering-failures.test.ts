import { randomUUID } from 'node:crypto';
import { openPool } from '../support/pg-pools';
import { RequestTicket } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { ApiError } from '../../src/domain/errors';
import {
  createAccount,
  createKey,
  ledgerState,
  opportunityIds,
  codeOf,
} from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §16.6: "When the metering store cannot record a delivery: 503 metering_unavailable,
// nothing delivered." Fail closed, never a free delivery.

describe('Postgres unreachable', () => {
  it('answers every metering call with metering_unavailable', async () => {
    const pool = openPool({
      host: '127.0.0.1',
      port: 1,
      user: 'postgres',
      connectionTimeoutMillis: 2000,
    });
    const meter = new PgMeter(pool);
    const subject = { accountId: randomUUID(), keyId: randomUUID() };
    try {
      expect(
        await codeOf(meter.deliver(subject, RequestTicket.spentAlready('r1'), opportunityIds(3))),
      ).toBe('metering_unavailable');
      expect(await codeOf(meter.snapshot(subject))).toBe('metering_unavailable');
      expect(await codeOf(meter.spendRequestId(subject, new RequestTicket('r2')))).toBe(
        'metering_unavailable',
      );
      expect(await codeOf(meter.deliver(subject, RequestTicket.spentAlready('r3'), []))).toBe(
        'metering_unavailable',
      );
    } finally {
      await pool.end();
    }
  });
});

describe('Postgres failing mid-delivery', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  /**
   * Holds, from another connection while `during` runs, the locks a charge needs: the account's
   * row (its wallet) and its period counters (the serialised part of meter_charge).
   */
  async function withAccountLocked<T>(accountId: string, during: () => Promise<T>): Promise<T> {
    const holder = await ctx.deps.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      await holder.query('SELECT 1 FROM metering_usage WHERE account_id = $1 FOR UPDATE', [
        accountId,
      ]);
      return await during();
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  }

  it('gives metering_unavailable, with nothing recorded, when its connection is killed', async () => {
    const accountId = await createAccount(ctx.deps.pool, {
      balanceMillicents: 4000,
      allowanceOverride: 0,
    });
    const subject = { accountId, keyId: await createKey(ctx.deps.pool, accountId) };
    const meter = new PgMeter(ctx.deps.pool);
    const before = await ledgerState(ctx.deps.pool, accountId);
    const code = await withAccountLocked(accountId, async () => {
      const pending = codeOf(
        meter.deliver(subject, RequestTicket.spentAlready('r1'), opportunityIds(3)),
      );
      // Wait until the delivery is blocked on the lock, then kill its backend.
      for (let i = 0; i < 100; i++) {
        const { rows } = await ctx.deps.pool.query<{ n: number }>(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%meter_charge%'`,
        );
        if ((rows[0]?.n ?? 0) > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      return pending;
    });
    expect(code).toBe('metering_unavailable');
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    // The pool recovers: the next delivery goes through.
    const out = await meter.deliver(subject, RequestTicket.spentAlready('r2'), opportunityIds(1));
    expect(out.chargeMillicents).toBe(400);
  });

  it('gives metering_unavailable when the account lock cannot be had in time', async () => {
    const accountId = await createAccount(ctx.deps.pool, { balanceMillicents: 4000 });
    const subject = { accountId, keyId: await createKey(ctx.deps.pool, accountId) };
    const meter = new PgMeter(ctx.deps.pool, { timeoutMs: 200 });
    const before = await ledgerState(ctx.deps.pool, accountId);
    const code = await withAccountLocked(accountId, () =>
      codeOf(meter.deliver(subject, RequestTicket.spentAlready('r1'), opportunityIds(2))),
    );
    expect(code).toBe('metering_unavailable');
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
  });

  it('keeps programming errors apart: an unknown key is a bug, not an outage', async () => {
    const accountId = await createAccount(ctx.deps.pool);
    const meter = new PgMeter(ctx.deps.pool);
    const err = await meter
      .deliver({ accountId, keyId: randomUUID() }, new RequestTicket('r1'), opportunityIds(1))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ApiError);
  });
});
