import { stringFlag, UsageError, uuidArgument, type Command } from '../command';

/** What an account with no allowance set (an enterprise one without --allowance) is told. */
export const UNSET_ALLOWANCE_NOTE = 'no allowance configured: nothing included';

/**
 * `usage --account ID` (contract §22.9): the account's current period, used, remaining and balance.
 * It reads the same snapshot as the usage headers (contract §18.3), so the two always agree.
 */
export const usageCommand: Command = {
  name: 'usage',
  accepts: { flags: ['account'], positional: [0, 0] },
  usage: 'usage --account ID',
  async run(args, capabilities) {
    const accountId = stringFlag(args, 'account');
    if (accountId === undefined) throw new UsageError('--account is required');
    uuidArgument(accountId, '--account');
    // The ledger alone: no search engine to reach (or, locally, to start) first.
    const { meter } = await capabilities({ searchEngine: false });
    const usage = await meter.snapshot({ accountId });
    return {
      ok: true,
      account_id: accountId,
      plan: usage.planId,
      billing_model: usage.billingModel,
      period_start: usage.periodStart.toISOString(),
      period_end: usage.periodEnd.toISOString(),
      allowance: usage.allowance,
      used: usage.used,
      included_used: usage.includedUsed,
      payg_used: usage.paygUsed,
      remaining: usage.remaining,
      balance_millicents: usage.balanceMillicents,
      prepaid_credits: usage.prepaidCredits,
      ...(usage.allowanceUnset ? { allowance_note: UNSET_ALLOWANCE_NOTE } : {}),
    };
  },
};
