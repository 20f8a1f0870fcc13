import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { openPool } from '../support/pg-pools';
import { RequestTicket, type PageDelivery } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { ApiError } from '../../src/domain/errors';
import {
  createAccount,
  createKey,
  ledgerState,
  opportunityIds,
  codeOf,
} from '../support/billing-fixtures';
import { cliJson } from '../support/cli';
import type { Opportunity } from '../../src/domain/record';
import { findOpportunity, upsertOpportunities } from '../../src/store/opportunity-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { StatementRecorder } from '../support/pg-statements';
import { get, newReader } from '../support/read-http';

// contract §16.3, §16.4, §16.7, §17.2, §17.3: a page without cut rules, of an account whose billing
// state the meter holds from an earlier read, is charged in ONE round trip (meter_deliver,
// migration 011; billing/pg-meter.ts class comment). These tests hold that the path is taken, and
// that it keeps every rule of the two-round-trip path: a 409 and a 402 that record nothing but the
// spent id, a 503 that spends its id, an admin's change obeyed by the very next request, and the
// ledger exact under many concurrent pages of one account.

// Each CLI run is a child process of 1 to 2 s.
jest.setTimeout(60_000);

let ctx: TestContext;
let pool: Pool;
const recorder = new StatementRecorder();

beforeAll(async () => {
  ctx = await createTestContext();
  pool = openPool({ connectionString: ctx.databaseUrl, max: 24 });
  recorder.install();
});
afterAll(async () => {
  recorder.uninstall();
  await pool.end();
  await ctx.close();
});

/** meter_deliver, or meter_deliver_many for several calls in one statement. */
const ONE_TRIP = /meter_deliver(_many)?\(/;
/** READ_PAGE and READ_PAGE_HOLDING (billing/ledger-sql.ts) both start so. */
const READ_PAGE = 'WITH durability AS';
const FLUSH = 'pg_logical_emit_message';
/** KNOWN_PAGES: the pages this process knows delivered. */
const KNOWN = 'AS spent_ids';

/**
 * What kind each statement sent was: the one trip; the two-trip path's read (twice on a wrong
 * period guess: the account is read again with the usage, so both are of one moment) and its
 * charge; the flush.
 */
function kinds(statements: string[]): string[] {
  const kind = (s: string): string => {
    if (ONE_TRIP.test(s)) return 'one-trip';
    if (s.includes(KNOWN)) return 'known';
    if (s.includes(READ_PAGE)) return 'read';
    if (s.includes('meter_charge(')) return 'charge';
    if (s.includes(FLUSH)) return 'flush';
    return s.replace(/\s+/g, ' ').slice(0, 60);
  };
  return statements.map(kind);
}

async function meterFor(
  account: Parameters<typeof createAccount>[1],
  options: ConstructorParameters<typeof PgMeter>[1] = {},
) {
  const accountId = await createAccount(ctx.deps.pool, account);
  const subject = { accountId, keyId: await createKey(ctx.deps.pool, accountId) };
  const meter = new PgMeter(ctx.deps.pool, { retentionEveryMs: 0, ...options });
  return { accountId, subject, meter };
}

/** meterFor once the meter holds the account's billing state (one delivery); the ledger then. */
async function heldMeterFor(
  account: Parameters<typeof createAccount>[1],
  options: ConstructorParameters<typeof PgMeter>[1] = {},
) {
  const made = await meterFor(account, options);
  await made.meter.deliver(made.subject, new RequestTicket('warm'), opportunityIds(1));
  return { ...made, before: await ledgerState(ctx.deps.pool, made.accountId) };
}

/** The statements sent by `fn` while another transaction holds the account's counter row. */
async function whileCountersLocked(accountId: string, fn: () => Promise<unknown>) {
  const holder = await ctx.deps.pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM metering_usage WHERE account_id = $1 FOR UPDATE', [
      accountId,
    ]);
    return await recorder.during(fn);
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
}

async function spentIds(accountId: string): Promise<string[]> {
  const { rows } = await ctx.deps.pool.query<{ request_id: string }>(
    'SELECT request_id FROM metering_request_ids WHERE account_id = $1 ORDER BY request_id',
    [accountId],
  );
  return rows.map((r) => r.request_id);
}

describe('the one-round-trip charge (PgMeter)', () => {
  it('charges a page in one round trip (and the shared flush) once the account is held', async () => {
    const { subject, meter } = await meterFor({ allowanceOverride: 3, balanceMillicents: 2000 });
    const [a, b, c, d] = opportunityIds(4) as [string, string, string, string];

    // Not held yet: the two round trips (a first read without a period guess reads twice), then
    // the flush.
    const first = await recorder.during(() => meter.deliver(subject, new RequestTicket('r1'), [a]));
    expect(kinds(first)).toEqual(['read', 'read', 'charge', 'flush']);

    // Held: one statement spends, decides and charges; then the flush.
    let out: PageDelivery | undefined;
    const second = await recorder.during(async () => {
      out = await meter.deliver(subject, new RequestTicket('r2'), [b, a, c, d, b]);
    });
    expect(kinds(second)).toEqual(['one-trip', 'flush']);
    // a was delivered by r1; b, c are the rest of the allowance, d is paid.
    expect(out).toMatchObject({
      newCount: 3,
      includedNewCount: 2,
      paygNewCount: 1,
      chargeMillicents: 400,
      servedIds: [b, a, c, d, b],
      consumed: 5,
    });
    expect(out?.usage).toMatchObject({
      used: 4,
      includedUsed: 3,
      paygUsed: 1,
      remaining: 0,
      balanceMillicents: 1600,
      prepaidCredits: 4,
    });

    // A page of repeats this meter saw delivered: one read (KNOWN_PAGES), which writes nothing
    // but the request id.
    const repeats = await recorder.during(async () => {
      out = await meter.deliver(subject, new RequestTicket('r3'), [d, a]);
    });
    expect(kinds(repeats)).toEqual(['known']);
    expect(out).toMatchObject({ newCount: 0, chargeMillicents: 0, servedIds: [d, a] });
    expect(out?.usage).toMatchObject({ used: 4, balanceMillicents: 1600 });

    // Repeats another process delivered: the one statement finds nothing new, and no flush.
    const other = new PgMeter(ctx.deps.pool, { retentionEveryMs: 0 });
    const [e, f] = opportunityIds(2) as [string, string];
    await other.deliver(subject, new RequestTicket('elsewhere'), [e, f]);
    const unknown = await recorder.during(async () => {
      out = await meter.deliver(subject, new RequestTicket('r4'), [e, a, f]);
    });
    expect(kinds(unknown)).toEqual(['one-trip']);
    expect(out).toMatchObject({ newCount: 0, chargeMillicents: 0, servedIds: [e, a, f] });
    expect(out?.usage).toMatchObject({ used: 6, balanceMillicents: 800 });
    // Known from then on.
    const known = await recorder.during(() =>
      meter.deliver(subject, new RequestTicket('r5'), [f, e]),
    );
    expect(kinds(known)).toEqual(['known']);
    expect(await spentIds(subject.accountId)).toEqual(['elsewhere', 'r1', 'r2', 'r3', 'r4', 'r5']);

    // Cut rules keep the two round trips.
    const cut = await recorder.during(() =>
      meter.deliver(subject, new RequestTicket('r6'), opportunityIds(2), { maxNew: 1 }),
    );
    expect(kinds(cut)).toEqual(['read', 'charge', 'flush']);
  });

  it('a reused request id → 409 through the one trip, nothing else written', async () => {
    const { accountId, subject, meter } = await meterFor({ allowanceOverride: 10 });
    await meter.deliver(subject, new RequestTicket('first'), opportunityIds(1));
    const before = await ledgerState(ctx.deps.pool, accountId);
    const ticket = new RequestTicket('first');
    let code = '';
    const statements = await recorder.during(async () => {
      code = await codeOf(meter.deliver(subject, ticket, opportunityIds(3)));
    });
    expect(code).toBe('duplicate_request_id');
    expect(kinds(statements)).toEqual(['one-trip']);
    expect(ticket.spent).toBe(true);
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    expect(await spentIds(accountId)).toEqual(['first']);
  });

  it('a 402 through the one trip records nothing and spends its id', async () => {
    const { accountId, subject, meter, before } = await heldMeterFor({
      allowanceOverride: 1,
      balanceMillicents: 399,
    });
    let code = '';
    const statements = await recorder.during(async () => {
      code = await codeOf(meter.deliver(subject, new RequestTicket('dear'), opportunityIds(2)));
    });
    expect(code).toBe('insufficient_balance');
    expect(kinds(statements)).toEqual(['one-trip', 'flush']);
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    expect(await spentIds(accountId)).toEqual(['dear', 'warm']);

    // legacy_entitlement: the same refusal as opportunity_quota_exhausted.
    const legacy = await meterFor({ billingModel: 'legacy_entitlement', allowanceOverride: 1 });
    await legacy.meter.deliver(legacy.subject, new RequestTicket('warm'), opportunityIds(1));
    const legacyBefore = await ledgerState(ctx.deps.pool, legacy.accountId);
    expect(
      await codeOf(
        legacy.meter.deliver(legacy.subject, new RequestTicket('over'), opportunityIds(1)),
      ),
    ).toBe('opportunity_quota_exhausted');
    expect(await ledgerState(ctx.deps.pool, legacy.accountId)).toEqual(legacyBefore);
  });

  it('a 503 through the one trip (lock not had in time) records nothing but spends its id', async () => {
    const { accountId, subject, meter, before } = await heldMeterFor(
      { balanceMillicents: 4000 },
      { timeoutMs: 200 },
    );
    let code = '';
    const statements = await whileCountersLocked(accountId, async () => {
      code = await codeOf(meter.deliver(subject, new RequestTicket('held'), opportunityIds(2)));
    });
    expect(code).toBe('metering_unavailable');
    expect(kinds(statements)[0]).toBe('one-trip');
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    // contract §17.2: the 503 spent its id, as the two-round-trip path's read does.
    expect(await spentIds(accountId)).toEqual(['held', 'warm']);
    expect(await codeOf(meter.deliver(subject, new RequestTicket('held'), opportunityIds(1)))).toBe(
      'duplicate_request_id',
    );
  });

  it('a changed status or period makes the held state stale: nothing written, the two trips', async () => {
    const { accountId, subject, meter } = await heldMeterFor({ allowanceOverride: 10 });
    await ctx.deps.pool.query(`UPDATE accounts SET status = 'suspended' WHERE id = $1`, [
      accountId,
    ]);
    const stale = await recorder.during(() =>
      meter.deliver(subject, new RequestTicket('after-status'), opportunityIds(1)),
    );
    expect(kinds(stale)).toEqual(['one-trip', 'read', 'charge', 'flush']);
    // Held again: the next page is one trip.
    const held = await recorder.during(() =>
      meter.deliver(subject, new RequestTicket('held-again'), opportunityIds(1)),
    );
    expect(kinds(held)).toEqual(['one-trip', 'flush']);

    // A stored billing period moves the period: the charge follows it.
    const start = new Date(Date.UTC(2020, 0, 1));
    const end = new Date(Date.UTC(2099, 0, 1));
    await ctx.deps.pool.query(
      `UPDATE accounts SET plan_id = 'builder', period_start = $2, period_end = $3 WHERE id = $1`,
      [accountId, start, end],
    );
    let out: PageDelivery | undefined;
    const moved = await recorder.during(async () => {
      out = await meter.deliver(subject, new RequestTicket('after-period'), opportunityIds(1));
    });
    // (The period guess was the old one: the read reads the new period's usage again.)
    expect(kinds(moved)).toEqual(['one-trip', 'read', 'read', 'charge', 'flush']);
    expect(out?.usage).toMatchObject({ periodStart: start, periodEnd: end, used: 1 });
    expect(await spentIds(accountId)).toEqual(
      ['warm', 'after-status', 'held-again', 'after-period'].sort(),
    );
  });

  it('many connections of one account, overlapping pages, reused ids: the ledger is exact', async () => {
    const allowance = 20;
    const balance = 40 * 400 + 123;
    const accountId = await createAccount(ctx.deps.pool, {
      allowanceOverride: allowance,
      balanceMillicents: balance,
    });
    const keys = [
      await createKey(ctx.deps.pool, accountId),
      await createKey(ctx.deps.pool, accountId, { allowance: 4 }),
    ];
    const meter = new PgMeter(pool, { retentionEveryMs: 0, timeoutMs: 60_000 });
    const ids = opportunityIds(90);
    await meter.deliver(
      { accountId, keyId: keys[0] ?? '' },
      new RequestTicket('warm'),
      ids.slice(0, 1),
    );

    const calls = Array.from({ length: 72 }, (_, i) => ({
      key: keys[i % 2] ?? '',
      // Overlapping windows of the pool, some with an id twice.
      page: [...ids.slice((i * 7) % 80, ((i * 7) % 80) + 6), ids[(i * 3) % 90] ?? ''],
      requestId: i % 9 === 8 ? `shared-${i % 2}` : `call-${i}`,
    }));
    type Settled =
      | { kind: 'ok'; requestId: string; delivery: PageDelivery }
      | { kind: 'refused' | 'duplicate'; requestId: string };
    let settled: Settled[] = [];
    const before = { calls: meter.oneTrips.calls, batches: meter.oneTrips.batches };
    const statements = await recorder.during(async () => {
      settled = await Promise.all(
        calls.map(async ({ key, page, requestId }): Promise<Settled> => {
          try {
            const delivery = await meter.deliver(
              { accountId, keyId: key },
              new RequestTicket(requestId),
              page,
            );
            return { kind: 'ok', requestId, delivery };
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            if (err.code === 'duplicate_request_id') return { kind: 'duplicate', requestId };
            expect(err.code).toBe('insufficient_balance');
            return { kind: 'refused', requestId };
          }
        }),
      );
    });
    // Every call took the one trip, and only it; the calls that arrived while the account's
    // statement ran went together in the next one.
    const sent = kinds(statements);
    expect(meter.oneTrips.calls - before.calls).toBe(calls.length);
    const oneTrips = meter.oneTrips.batches - before.batches;
    expect(sent.filter((k) => k === 'one-trip')).toHaveLength(oneTrips);
    expect(oneTrips).toBeLessThan(calls.length);
    expect(sent.filter((k) => k === 'read' || k === 'charge')).toHaveLength(0);

    const { rows } = await ctx.deps.pool.query<{
      opportunity_id: string;
      key_id: string;
      request_id: string;
      charge_millicents: number;
    }>(
      `SELECT opportunity_id, key_id, request_id, charge_millicents FROM metering_deliveries
        WHERE account_id = $1 AND request_id <> 'warm'`,
      [accountId],
    );
    const state = await ledgerState(ctx.deps.pool, accountId);
    const ok = settled.flatMap((c) => (c.kind === 'ok' ? [c] : []));
    const charged = ok.reduce((n, c) => n + c.delivery.chargeMillicents, 0);
    expect(new Set(rows.map((r) => r.opportunity_id)).size).toBe(rows.length);
    expect(ok.reduce((n, c) => n + c.delivery.newCount, 0)).toBe(rows.length);
    for (const c of ok) {
      const mine = rows.filter((r) => r.request_id === c.requestId);
      expect(mine).toHaveLength(c.delivery.newCount);
      expect(mine.filter((r) => r.charge_millicents > 0)).toHaveLength(c.delivery.paygNewCount);
      expect(c.delivery.chargeMillicents).toBe(c.delivery.paygNewCount * 400);
    }
    // One call per request id is not a 409; a refused call recorded nothing.
    for (const id of new Set(calls.map((c) => c.requestId))) {
      expect(settled.filter((c) => c.requestId === id && c.kind !== 'duplicate')).toHaveLength(1);
    }
    for (const c of settled.filter((x) => x.kind === 'refused')) {
      expect(rows.filter((r) => r.request_id === c.requestId)).toHaveLength(0);
    }
    expect(state.usage.used).toBe(rows.length + 1);
    expect(balance - state.balance).toBe(charged);
    expect(state.walletCharges).toBe(charged);
    expect(state.deliveryCharges).toBe(charged);
    expect(state.balance).toBeGreaterThanOrEqual(0);
    expect(state.usage.payg * 400).toBe(charged);
    expect(state.usage.included).toBeLessThanOrEqual(allowance);
    const keyIncluded = rows.filter((r) => r.key_id === keys[1] && r.charge_millicents === 0);
    expect(keyIncluded.length).toBeLessThanOrEqual(4);
    expect(await spentIds(accountId)).toEqual(
      [...new Set(['warm', ...calls.map((c) => c.requestId)])].sort(),
    );
  });
});

describe("one account's one-round-trip calls sent together (DELIVER_MANY)", () => {
  const MANY = 'meter_deliver_many(';
  const sorts = (statements: string[]) =>
    statements.map((s) => (s.includes(MANY) ? 'many' : kinds([s])[0]));

  /** Settles each call to its delivery or its error code. */
  const outcomes = (calls: Array<Promise<PageDelivery>>) =>
    Promise.all(
      calls.map((c) =>
        c.then(
          (d) => d,
          (err: unknown) => {
            if (err instanceof ApiError) return err.code;
            throw err;
          },
        ),
      ),
    );

  it('calls made while one runs go in one statement, each with its own answer', async () => {
    // legacy_entitlement with 4 of the allowance left: exactly 4 records are delivered, whatever
    // the order, and each call past them is refused with nothing recorded.
    const { accountId, subject, meter } = await heldMeterFor({
      billingModel: 'legacy_entitlement',
      allowanceOverride: 5,
    });
    const otherKey = await createKey(ctx.deps.pool, accountId);
    const ids = opportunityIds(8);
    const page = (i: number) => [ids[i] ?? '', ids[i + 1] ?? ''];
    let settled: Array<PageDelivery | string> = [];
    const statements = await recorder.during(async () => {
      // Made in one tick: the first is sent at once, the others wait for it, then go together.
      settled = await outcomes([
        meter.deliver(subject, new RequestTicket('c0'), page(0)),
        meter.deliver(subject, new RequestTicket('c1'), page(2)),
        meter.deliver({ ...subject, keyId: otherKey }, new RequestTicket('c2'), page(4)),
        meter.deliver(subject, new RequestTicket('c1'), page(6)),
        meter.deliver(subject, new RequestTicket('c3'), page(1)),
        meter.deliver(subject, new RequestTicket('c4'), page(6)),
        meter.deliver(subject, new RequestTicket('c5'), [ids[0] ?? '', ids[5] ?? '']),
      ]);
    });
    expect(sorts(statements).filter((k) => k !== 'flush')).toEqual(['one-trip', 'many']);
    const [c0, c1, c2, c1again, c3, c4, c5] = settled as [
      PageDelivery,
      PageDelivery,
      string,
      string,
      PageDelivery,
      string,
      string,
    ];
    // In order: c0 and c1 take the 4 left; c2 (another key) would need 2 more; the reused c1 is a
    // 409 that records nothing; c3's page is c0's and c1's records again, free; c4's page is the
    // one the 409 did not record, and c5's has one new id among repeats: both refused.
    expect(c0).toMatchObject({ newCount: 2, servedIds: page(0) });
    expect(c1).toMatchObject({ newCount: 2, servedIds: page(2) });
    expect(c2).toBe('opportunity_quota_exhausted');
    expect(c1again).toBe('duplicate_request_id');
    expect(c3).toMatchObject({ newCount: 0, chargeMillicents: 0, servedIds: page(1) });
    expect(c4).toBe('opportunity_quota_exhausted');
    expect(c5).toBe('opportunity_quota_exhausted');
    const { rows } = await ctx.deps.pool.query<{ opportunity_id: string; request_id: string }>(
      `SELECT opportunity_id::text, request_id FROM metering_deliveries
        WHERE account_id = $1 AND request_id <> 'warm' ORDER BY request_id, opportunity_id`,
      [accountId],
    );
    expect(rows).toEqual(
      [
        ...page(0).map((id) => ({ opportunity_id: id, request_id: 'c0' })),
        ...page(2).map((id) => ({ opportunity_id: id, request_id: 'c1' })),
      ].sort((a, b) =>
        (a.request_id + a.opportunity_id).localeCompare(b.request_id + b.opportunity_id),
      ),
    );
    const state = await ledgerState(ctx.deps.pool, accountId);
    expect(state.usage).toEqual({ used: 5, included: 5, payg: 0 });
    expect(await spentIds(accountId)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'warm']);
    // The delivered pages' usage is the account's after each: 3 then 5.
    expect([c0.usage.used, c1.usage.used]).toEqual([3, 5]);
  });

  it('a statement that fails fails each of its calls: nothing recorded, every id spent', async () => {
    // The calls queued behind the first wait for it past its lock timeout, so that they are sent
    // together (by default they would give up at the same 200 ms: upstream-deadlines.test.ts).
    const { accountId, subject, meter, before } = await heldMeterFor(
      { balanceMillicents: 4000 },
      { timeoutMs: 200, queueWaitMs: 10_000 },
    );
    let settled: Array<PageDelivery | string> = [];
    const statements = await whileCountersLocked(accountId, async () => {
      settled = await outcomes(
        ['h0', 'h1', 'h2', 'h3'].map((id) =>
          meter.deliver(subject, new RequestTicket(id), opportunityIds(2)),
        ),
      );
    });
    expect(settled).toEqual(Array(4).fill('metering_unavailable'));
    expect(sorts(statements).filter((k) => k === 'one-trip' || k === 'many')).toEqual([
      'one-trip',
      'many',
    ]);
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    expect(await spentIds(accountId)).toEqual(['h0', 'h1', 'h2', 'h3', 'warm']);
  });

  it('details go together too, each with its record (or none)', async () => {
    const made = Array.from({ length: 3 }, () => makeRecord({ normalized_title: 'many details' }));
    await upsertOpportunities(ctx.deps.pool, made, ctx.deps.taxonomy.version);
    const [a, b, c] = made as [Opportunity, Opportunity, Opportunity];
    const { accountId, subject, meter } = await meterFor({ allowanceOverride: 10 });
    const find = (id: string) => findOpportunity(ctx.deps.pool, id);
    await meter.deliverRecord(subject, new RequestTicket('warm'), c.id, find);
    let got: Array<Awaited<ReturnType<PgMeter['deliverRecord']>>> = [];
    const statements = await recorder.during(async () => {
      got = await Promise.all(
        [a.id, b.id, randomUUID(), a.id].map((id, i) =>
          meter.deliverRecord(subject, new RequestTicket(`d${i}`), id, find),
        ),
      );
    });
    expect(sorts(statements).filter((k) => k !== 'flush')).toEqual(['one-trip', 'many']);
    expect(got.map((g) => g?.record.id ?? null)).toEqual([a.id, b.id, null, a.id]);
    expect(got.map((g) => g?.delivery.newCount)).toEqual([1, 1, undefined, 0]);
    const { rows } = await ctx.deps.pool.query<{ id: string }>(
      `SELECT opportunity_id::text AS id FROM metering_deliveries
        WHERE account_id = $1 ORDER BY request_id`,
      [accountId],
    );
    expect(rows.map((r) => r.id)).toEqual([a.id, b.id, c.id]);
    expect(await spentIds(accountId)).toEqual(['d0', 'd1', 'd2', 'd3', 'warm']);
  });
});

describe('pages this process knows delivered (KNOWN_PAGES)', () => {
  it('go together in one statement, each with its own answer, writing only request ids', async () => {
    const { accountId, subject, meter } = await meterFor({ allowanceOverride: 10 });
    const [a, b, c] = opportunityIds(3) as [string, string, string];
    await meter.deliver(subject, new RequestTicket('warm'), [a, b, c]);
    const before = await ledgerState(ctx.deps.pool, accountId);
    const spent = new RequestTicket('spent');
    await meter.spendRequestId(subject, spent);
    let settled: Array<PageDelivery | string> = [];
    const statements = await recorder.during(async () => {
      settled = await Promise.all(
        [
          meter.deliver(subject, new RequestTicket('k1'), [a]),
          meter.deliver(subject, new RequestTicket('k2'), [b, c]),
          meter.deliver(subject, new RequestTicket('k1'), [c]),
          meter.deliver(subject, new RequestTicket('k3'), [a, b], { newOnly: true }),
          meter.deliver(subject, spent, [c, a]),
          meter.deliver(subject, new RequestTicket('warm'), [b]),
        ].map((call) => call.catch((err: unknown) => (err instanceof ApiError ? err.code : ''))),
      );
    });
    // The first alone, the others together in the next statement.
    expect(kinds(statements)).toEqual(['known', 'known']);
    expect(meter.knownPages.calls).toBe(6);
    const [k1, k2, k1again, k3, spentAlready, warmAgain] = settled as [
      PageDelivery,
      PageDelivery,
      string,
      PageDelivery,
      PageDelivery,
      string,
    ];
    expect(k1).toMatchObject({ newCount: 0, chargeMillicents: 0, servedIds: [a], consumed: 1 });
    expect(k2).toMatchObject({ newCount: 0, servedIds: [b, c], consumed: 2 });
    expect(k1again).toBe('duplicate_request_id');
    // unseen_only leaves every known record out (contract §11.1).
    expect(k3).toMatchObject({ newCount: 0, servedIds: [] });
    expect(spentAlready).toMatchObject({ newCount: 0, servedIds: [c, a] });
    expect(warmAgain).toBe('duplicate_request_id');
    for (const page of [k1, k2, k3, spentAlready])
      expect(page.usage).toMatchObject({ used: 3, includedUsed: 3, remaining: 7 });
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    expect(await spentIds(accountId)).toEqual(['k1', 'k2', 'k3', 'spent', 'warm']);
  });

  it('a period changed since the page was known: read again, and charged in the new one', async () => {
    const now = Date.now();
    const { accountId, subject, meter } = await meterFor({
      billingModel: 'legacy_wallet',
      balanceMillicents: 10_000,
      periodStart: new Date(now - 10 * 86_400_000),
      periodEnd: new Date(now + 10 * 86_400_000),
    });
    const [a, b] = opportunityIds(2) as [string, string];
    await meter.deliver(subject, new RequestTicket('old'), [a, b]);
    // An admin starts a new period now (the stored period moves).
    await ctx.deps.pool.query(
      'UPDATE accounts SET period_start = $2, period_end = $3 WHERE id = $1',
      [accountId, new Date(now - 1000), new Date(now + 30 * 86_400_000)],
    );
    let out: PageDelivery | undefined;
    const statements = await recorder.during(async () => {
      out = await meter.deliver(subject, new RequestTicket('new'), [a, b]);
    });
    expect(kinds(statements).slice(0, 2)).toEqual(['known', 'read']);
    expect(out).toMatchObject({ newCount: 2, chargeMillicents: 800, servedIds: [a, b] });
    expect(out?.usage).toMatchObject({ used: 2 });
    expect(await spentIds(accountId)).toEqual(['new', 'old']);
  });
});

describe('a detail read and charged in one round trip (PgMeter.deliverRecord)', () => {
  const FIND = 'SELECT id, record FROM opportunities';
  let stored: Opportunity[];
  beforeAll(async () => {
    stored = Array.from({ length: 4 }, () => makeRecord({ normalized_title: 'detail trip' }));
    await upsertOpportunities(ctx.deps.pool, stored, ctx.deps.taxonomy.version);
  });

  /** The detail's own lookup, counted: the fused statement must not need it. */
  function finder() {
    const asked: string[] = [];
    const find = (id: string) => {
      asked.push(id);
      return findOpportunity(ctx.deps.pool, id);
    };
    return { asked, find };
  }
  const label = (statements: string[]) =>
    kinds(statements).map((k) => (k.startsWith(FIND) ? 'find' : k));

  it('reads the record in the statement that charges it, once the account is held', async () => {
    const { accountId, subject, meter } = await meterFor({ allowanceOverride: 10 });
    const [a, b] = stored as [Opportunity, Opportunity];
    // Not held yet: the record first, then the two round trips.
    const first = finder();
    let out = await meter.deliverRecord(subject, new RequestTicket('d1'), a.id, first.find);
    expect(first.asked).toEqual([a.id]);
    expect(out?.record).toEqual(a);

    const held = finder();
    const statements = await recorder.during(async () => {
      out = await meter.deliverRecord(subject, new RequestTicket('d2'), b.id, held.find);
    });
    expect(label(statements)).toEqual(['one-trip', 'flush']);
    expect(held.asked).toEqual([]);
    expect(out?.record).toEqual(b);
    expect(out?.delivery).toMatchObject({ newCount: 1, includedNewCount: 1, servedIds: [b.id] });
    expect(out?.delivery.usage).toMatchObject({ used: 2, remaining: 8 });
    const { rows } = await ctx.deps.pool.query<{ id: string }>(
      'SELECT opportunity_id::text AS id FROM metering_deliveries WHERE account_id = $1',
      [accountId],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());

    // A record this meter saw delivered: one read (KNOWN_PAGES), after the lookup.
    const again = finder();
    const repeat = await recorder.during(async () => {
      out = await meter.deliverRecord(subject, new RequestTicket('d3'), b.id, again.find);
    });
    expect(label(repeat)).toEqual(['find', 'known']);
    expect(out?.delivery).toMatchObject({ newCount: 0, chargeMillicents: 0 });
    expect(await spentIds(accountId)).toEqual(['d1', 'd2', 'd3']);
  });

  it('an unknown or deleted id: null, its request id spent, nothing recorded', async () => {
    const { accountId, subject, meter } = await meterFor({ allowanceOverride: 10 });
    const [, , c, d] = stored as [Opportunity, Opportunity, Opportunity, Opportunity];
    await meter.deliverRecord(subject, new RequestTicket('warm'), c.id, finder().find);
    await ctx.deps.pool.query('UPDATE opportunities SET deleted_at = now() WHERE id = $1', [d.id]);
    const before = await ledgerState(ctx.deps.pool, accountId);
    for (const [ticket, id] of [
      ['unknown', randomUUID()],
      ['deleted', d.id],
    ] as const) {
      const lookup = finder();
      let out: unknown = 'unset';
      const statements = await recorder.during(async () => {
        out = await meter.deliverRecord(subject, new RequestTicket(ticket), id, lookup.find);
      });
      expect(out).toBeNull();
      // Nothing was recorded, so nothing waits for a flush.
      expect(label(statements)).toEqual(['one-trip']);
      expect(lookup.asked).toEqual([]);
    }
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
    expect(await spentIds(accountId)).toEqual(['deleted', 'unknown', 'warm']);
  });

  it('a reused request id → 409 through the fused statement, nothing recorded', async () => {
    const { accountId, subject, meter } = await meterFor({ allowanceOverride: 10 });
    const [a, b] = stored as [Opportunity, Opportunity];
    await meter.deliverRecord(subject, new RequestTicket('once'), a.id, finder().find);
    const before = await ledgerState(ctx.deps.pool, accountId);
    const ticket = new RequestTicket('once');
    let code = '';
    const statements = await recorder.during(async () => {
      code = await codeOf(meter.deliverRecord(subject, ticket, b.id, finder().find));
    });
    expect(code).toBe('duplicate_request_id');
    expect(label(statements)).toEqual(['one-trip']);
    expect(ticket.spent).toBe(true);
    expect(await ledgerState(ctx.deps.pool, accountId)).toEqual(before);
  });
});

describe('the one-round-trip charge over HTTP', () => {
  let records: string[];
  beforeAll(async () => {
    const made = Array.from({ length: 8 }, () => makeRecord({ normalized_title: 'one trip' }));
    await storeAndIndex(ctx.deps, made);
    records = made.map((r) => r.id);
  });

  const detail = (key: string, n: number) =>
    get(ctx.baseUrl, `/v1/opportunities/${records[n] ?? ''}`, {
      key,
      headers: { 'X-Request-ID': randomUUID() },
    });
  const update = async (accountId: string, ...args: string[]) => {
    const { code } = await cliJson(['account', 'update', accountId, ...args], {
      databaseUrl: ctx.databaseUrl,
    });
    expect(code).toBe(0);
  };

  it('an admin change between two requests: the second obeys the new state', async () => {
    const reader = await newReader(ctx.deps, { allowance_override: 5, balance_millicents: 0 });
    expect((await detail(reader.key, 0)).status).toBe(200);
    // Held now: the next charged detail is one trip, with the usage headers of the charge.
    let res = await detail(reader.key, 0);
    const held = await recorder.during(async () => {
      res = await detail(reader.key, 1);
    });
    expect(res.status).toBe(200);
    // The record is read by the statement that charges it: nothing else goes to Postgres.
    expect(kinds(held)).toEqual(['one-trip', 'flush']);
    expect(res.body.data).toMatchObject({ id: records[1] });
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('1');
    expect(res.headers.get('x-service-included-new-opportunity-count')).toBe('1');
    expect(res.headers.get('x-service-opportunity-used')).toBe('2');
    expect(res.headers.get('x-service-opportunity-remaining')).toBe('3');
    expect(res.headers.get('x-service-opportunity-limit')).toBe('5');
    expect(res.headers.get('x-service-balance-millicents')).toBe('0');

    // The allowance cut to what is used: the next new record is not included any more (402).
    await update(reader.accountId, '--allowance', '2');
    res = await detail(reader.key, 2);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_balance');
    expect(res.headers.get('x-service-opportunity-limit')).toBe('2');

    // The billing model: legacy_entitlement refuses with its own code.
    await update(reader.accountId, '--billing-model', 'legacy_entitlement');
    res = await detail(reader.key, 2);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('opportunity_quota_exhausted');

    // Back to the plan, the override gone: Free's 1,000 include the record again.
    await update(reader.accountId, '--billing-model', 'plan', '--allowance', 'none');
    res = await detail(reader.key, 2);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-opportunity-limit')).toBe('1000');
    expect(res.headers.get('x-service-included-new-opportunity-count')).toBe('1');

    // The plan: Enterprise without an override includes nothing (402 with no balance).
    await update(reader.accountId, '--plan', 'enterprise');
    res = await detail(reader.key, 3);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_balance');

    const state = await ledgerState(ctx.deps.pool, reader.accountId);
    expect(state.usage).toEqual({ used: 3, included: 3, payg: 0 });
  });
});
