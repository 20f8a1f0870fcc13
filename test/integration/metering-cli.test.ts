import { compose } from '../../src/app/compose';
import { randomUUID } from 'node:crypto';
import { usageHeaders } from '../../src/billing/headers';
import { RequestTicket } from '../../src/billing/metering';
import { PgMeter } from '../../src/billing/pg-meter';
import { parseArgs, UsageError } from '../../src/cli/command';
import { usageCommand } from '../../src/cli/commands/usage';
import { createAccount, createKey, opportunityIds } from '../support/billing-fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §22.9: `usage --account ID` agrees with the usage headers (§18.3).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const usage = (...argv: string[]) =>
  usageCommand.run(parseArgs(argv), () => Promise.resolve(compose(ctx.deps)));

describe('usage CLI', () => {
  it('prints the same period, usage and balance as the headers of the last delivery', async () => {
    const accountId = await createAccount(ctx.deps.pool, {
      allowanceOverride: 3,
      balanceMillicents: 1000,
    });
    const keyId = await createKey(ctx.deps.pool, accountId);
    const outcome = await new PgMeter(ctx.deps.pool).deliver(
      { accountId, keyId },
      RequestTicket.spentAlready(randomUUID()),
      opportunityIds(5),
    );
    const h = usageHeaders(outcome.usage, outcome, { marketplaceVerified: false });
    const out = await usage('--account', accountId);
    expect(out).toMatchObject({
      ok: true,
      account_id: accountId,
      plan: h['X-Service-Plan'],
      billing_model: 'plan',
      period_end: h['X-Service-Period-End'],
      allowance: Number(h['X-Service-Opportunity-Limit']),
      used: Number(h['X-Service-Opportunity-Used']),
      remaining: Number(h['X-Service-Opportunity-Remaining']),
      balance_millicents: Number(h['X-Service-Balance-Millicents']),
      prepaid_credits: Number(h['X-Service-Prepaid-Opportunity-Credits']),
    });
    expect(out).toMatchObject({
      plan: 'free',
      allowance: 3,
      used: 5,
      remaining: 0,
      balance_millicents: 200,
    });
  });

  it('shows no plan for a legacy wallet, as the headers do', async () => {
    const accountId = await createAccount(ctx.deps.pool, {
      billingModel: 'legacy_wallet',
      balanceMillicents: 999,
    });
    expect(await usage('--account', accountId)).toMatchObject({
      plan: null,
      billing_model: 'legacy_wallet',
      allowance: 0,
      remaining: 0,
      prepaid_credits: 2,
    });
  });

  it('rejects a missing or malformed account id as a usage error', async () => {
    await expect(usage()).rejects.toBeInstanceOf(UsageError);
    await expect(usage('--account', 'nope')).rejects.toBeInstanceOf(UsageError);
    await expect(usage('--account', randomUUID())).rejects.toThrow(/not found/);
  });
});
