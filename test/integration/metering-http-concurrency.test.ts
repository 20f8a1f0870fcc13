import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { ROOMY } from '../support/factories';

// contract §16 over HTTP: dozens of parallel list requests from several keys of one
// account never deliver past allowance + balance, never double charge, and each ends 200 or 402.

const GROUPS = 12;
const PER_GROUP = 5;
const ALLOWANCE = 10;
const BALANCE = 10 * 400 + 399; // ten prepaid opportunities and change that buys nothing

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  const records = Array.from({ length: GROUPS * PER_GROUP }, (_, i) =>
    makeRecord({ normalized_title: `group ${i % GROUPS}` }),
  );
  await storeAndIndex(ctx.deps, records);
});
afterAll(() => ctx.close());

it('never over-delivers or double charges under parallel requests from several keys', async () => {
  const account = await createAccount(ctx.deps.pool, {
    plan: 'builder',
    allowance_override: ALLOWANCE,
    balance_millicents: BALANCE,
    ...ROOMY,
  });
  const keys = await Promise.all(
    [1, 2, 3].map((n) => createApiKey(ctx.deps.pool, { accountId: account.id, label: `k${n}` })),
  );
  // Every group is asked for three times, by different keys, all at once.
  const requests = Array.from({ length: GROUPS * 3 }, (_, i) => ({
    key: keys[i % 3]?.key ?? '',
    group: i % GROUPS,
  }));
  const responses = await Promise.all(
    requests.map(async ({ key, group }) => {
      const res = await fetch(
        `${ctx.baseUrl}/v1/opportunities?limit=${PER_GROUP}&normalized_title=${encodeURIComponent(`group ${group}`)}`,
        { headers: { 'X-API-Key': key } },
      );
      const body = (await res.json()) as { data?: { id: string }[]; error?: { code: string } };
      return {
        status: res.status,
        code: body.error?.code,
        ids: body.data?.map((r) => r.id) ?? [],
        newCount: Number(res.headers.get('x-service-new-opportunity-count')),
        charge: Number(res.headers.get('x-service-usage-charge-millicents')),
      };
    }),
  );

  for (const r of responses) {
    expect([200, 402]).toContain(r.status);
    if (r.status === 402) expect(r.code).toBe('insufficient_balance');
  }
  const ok = responses.filter((r) => r.status === 200);
  const delivered = new Set(ok.flatMap((r) => r.ids));
  const capacity = ALLOWANCE + Math.floor(BALANCE / 400);
  expect(delivered.size).toBeLessThanOrEqual(capacity);
  expect(delivered.size).toBeGreaterThanOrEqual(capacity - PER_GROUP + 1);
  // Each delivered id counted new exactly once across all responses.
  expect(ok.reduce((sum, r) => sum + r.newCount, 0)).toBe(delivered.size);

  const ledger = await ctx.deps.pool.query<{ opportunity_id: string }>(
    'SELECT opportunity_id FROM metering_deliveries WHERE account_id = $1',
    [account.id],
  );
  expect(new Set(ledger.rows.map((r) => r.opportunity_id))).toEqual(delivered);
  expect(ledger.rowCount).toBe(delivered.size);

  const wallet = await ctx.deps.pool.query<{ balance: string; charged: string }>(
    `SELECT a.balance_millicents AS balance,
            (SELECT COALESCE(-sum(amount_millicents), 0) FROM wallet_ledger
             WHERE account_id = a.id AND kind = 'charge') AS charged
     FROM accounts a WHERE a.id = $1`,
    [account.id],
  );
  const charged = Number(wallet.rows[0]?.charged);
  expect(BALANCE - Number(wallet.rows[0]?.balance)).toBe(charged);
  expect(ok.reduce((sum, r) => sum + r.charge, 0)).toBe(charged);
  expect(charged).toBe(Math.max(0, delivered.size - ALLOWANCE) * 400);
});
