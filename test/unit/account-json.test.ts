import { accountJson } from '../../src/cli/commands/account-create';
import type { Account } from '../../src/domain/account';

// `account create` and `account update` print the limits the meter applies: an enterprise account
// without --allowance includes nothing, as `usage` says, and its output must not read "unlimited".
const account = (over: Partial<Account> = {}): Account => ({
  id: '6a7c8e90-96e4-4637-8698-ca95d794f5cf',
  name: null,
  plan: {
    id: 'enterprise',
    label: 'Enterprise',
    opportunity_allowance: null,
    period_kind: 'billing_period',
    requests_per_second: 50,
    max_page_size: 100,
  },
  billing_model: 'plan',
  status: 'active',
  balance_millicents: 0,
  allowance_override: null,
  rps_override: null,
  page_size_override: null,
  period_start: null,
  period_end: null,
  created_at: new Date('2026-11-29T00:00:00Z'),
  ...over,
});

it('an enterprise account without an allowance shows 0, with the note usage prints', () => {
  expect(accountJson(account()).limits).toEqual({
    allowance: 0,
    requests_per_second: 50,
    max_page_size: 100,
    allowance_note: 'no allowance configured: nothing included',
  });
});

it('an enterprise account with an allowance shows it, without a note', () => {
  expect(accountJson(account({ allowance_override: 5000 })).limits).toEqual({
    allowance: 5000,
    requests_per_second: 50,
    max_page_size: 100,
  });
});
