import {
  IGNORED_PERIOD_NOTE,
  UNSPENT_BALANCE_NOTE,
  UNUSED_ALLOWANCE_NOTE,
  accountFlags,
  accountJson,
} from '../../src/cli/commands/account-create';
import { parseArgs } from '../../src/cli/command';
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

// A period given to a Free account was stored and silently ignored (the meter counts calendar
// months for Free): the output now says so.
describe('a stored period on a Free account', () => {
  const period = { period_start: new Date('2026-11-15Z'), period_end: new Date('2026-12-15Z') };
  it('is printed with the note that the meter does not apply it', () => {
    const free = new MemoryAccounts().createAccount({ plan: 'free', ...period });
    expect(accountJson(free)).toMatchObject({
      period_start: '2026-11-15T00:00:00.000Z',
      period_note: IGNORED_PERIOD_NOTE,
    });
  });
  it('needs no note on a paid plan or legacy billing, nor without a period', () => {
    const accounts = new MemoryAccounts();
    for (const account of [
      accounts.createAccount({ plan: 'builder', ...period }),
      accounts.createAccount({ plan: 'free', billing_model: 'legacy_wallet', ...period }),
      accounts.createAccount({ plan: 'free' }),
    ]) {
      expect(accountJson(account)).not.toHaveProperty('period_note');
    }
  });
});

// `update --name none` clears the name while `create --name none` stored the text "none": a name
// that update could never set. `none` is no name on both.
it('--name none is no name on create as on update', () => {
  const args = parseArgs(['account', 'create', '--name', 'none']);
  expect(accountFlags(args, false).name).toBeNull();
  expect(accountFlags(args, true).name).toBeNull();
  // The store trims a name: ` none` is `none`.
  expect(accountFlags(parseArgs(['account', 'create', '--name', ' none ']), true).name).toBeNull();
  expect(accountFlags(parseArgs(['account', 'create', '--name', 'Acme']), false).name).toBe('Acme');
});

// A balance given to a legacy entitlement, and an allowance given to a legacy wallet, were stored
// and printed as if they applied: `usage` then showed a balance of 0 (the entitlement has no
// prepaid credit) or an allowance of 0. The output now says what the model does not apply.
describe('settings the billing model does not apply', () => {
  const accounts = new MemoryAccounts();
  it.each([
    [
      'a legacy entitlement with a balance: it is not spent',
      { billing_model: 'legacy_entitlement' as const, balance_millicents: 5000 },
      { balance_millicents: 5000, balance_note: UNSPENT_BALANCE_NOTE },
    ],
    [
      'a legacy wallet with an allowance: it is not applied',
      { billing_model: 'legacy_wallet' as const, allowance_override: 500 },
      { allowance_override: 500, allowance_note: UNUSED_ALLOWANCE_NOTE, limits: { allowance: 0 } },
    ],
  ])('%s, and the output says so', (_name, settings, printed) => {
    const account = accounts.createAccount({ plan: 'builder', ...settings });
    expect(accountJson(account)).toMatchObject(printed);
  });
  it('no note where the model applies them', () => {
    for (const account of [
      accounts.createAccount({ plan: 'builder', balance_millicents: 5000, allowance_override: 9 }),
      accounts.createAccount({
        plan: 'builder',
        billing_model: 'legacy_wallet',
        balance_millicents: 5000,
      }),
      accounts.createAccount({
        plan: 'builder',
        billing_model: 'legacy_entitlement',
        allowance_override: 9,
      }),
    ]) {
      expect(accountJson(account)).not.toHaveProperty('balance_note');
      expect(accountJson(account)).not.toHaveProperty('allowance_note');
    }
  });
});
