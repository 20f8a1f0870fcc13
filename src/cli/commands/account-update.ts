import { updateAccount } from '../../store/account-repo';
import { uuidArgument, type Command } from '../command';
import { ACCOUNT_FLAGS, accountFlags, accountJson, withPostgres } from './account-create';

export const accountUpdateCommand: Command = {
  name: 'account update',
  accepts: { flags: ACCOUNT_FLAGS, positional: [1, 1] },
  usage:
    'account update ID [same flags as account create; `none` clears an override or the period]',
  async run(args) {
    // Exactly one, checked before it runs (checkArguments).
    const id = uuidArgument(args.positional[0] ?? '', 'ID');
    const patch = accountFlags(args, true);
    const account = await withPostgres((pool) => updateAccount(pool, id, patch));
    if (!account) throw new Error(`no account ${id}`);
    return accountJson(account);
  },
};
