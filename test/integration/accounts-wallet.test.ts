import { createAccount, updateAccount } from '../../src/store/account-repo';
import { createTestContext, type TestContext } from '../support/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

it('writes every balance change to the wallet ledger, so the ledger explains the balance', async () => {
  const account = await createAccount(ctx.deps.pool, {
    plan: 'builder',
    balance_millicents: 10_000,
  });
  await updateAccount(ctx.deps.pool, account.id, { balance_millicents: 4_000 });
  await updateAccount(ctx.deps.pool, account.id, {
    balance_millicents: 4_000,
    name: 'same balance',
  });
  await updateAccount(ctx.deps.pool, account.id, { balance_millicents: 6_400 });
  const { rows } = await ctx.deps.pool.query<{ kind: string; amount: string; after: string }>(
    `SELECT kind, amount_millicents AS amount, balance_after AS after FROM wallet_ledger
     WHERE account_id = $1 ORDER BY id`,
    [account.id],
  );
  expect(rows).toEqual([
    { kind: 'credit', amount: '10000', after: '10000' },
    { kind: 'adjustment', amount: '-6000', after: '4000' },
    { kind: 'credit', amount: '2400', after: '6400' },
  ]);
});
