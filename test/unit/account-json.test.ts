import { accountJson } from '../../src/cli/commands/account-create';
import { MemoryAccounts } from '../../src/store/memory-accounts';

// `account create` and `account update` print the limits the meter applies: an enterprise account
// without --allowance includes nothing, as `usage` says, and its output must not read "unlimited".
const enterprise = (allowance: number | null) =>
  new MemoryAccounts().createAccount({ plan: 'enterprise', allowance_override: allowance });

it('an enterprise account without an allowance shows 0, with the note usage prints', () => {
  expect(accountJson(enterprise(null)).limits).toEqual({
    allowance: 0,
    requests_per_second: 50,
    max_page_size: 100,
    allowance_note: 'no allowance configured: nothing included',
  });
});

it('an enterprise account with an allowance shows it, without a note', () => {
  expect(accountJson(enterprise(5000)).limits).toEqual({
    allowance: 5000,
    requests_per_second: 50,
    max_page_size: 100,
  });
});
