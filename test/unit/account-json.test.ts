import {
  IGNORED_PERIOD_NOTE,
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
