import { topUpAccount } from '../../store/account-repo';
import { stringFlag, uuidArgument, UsageError, type Command } from '../command';
import { accountJson, withPostgres } from './account-create';

// contract §16.3, §22.9: purchased credit is added to the wallet, never set: `account update
// --balance-millicents` sets the balance, and an operator adding credit that way could undo a
// charge made between reading the balance and writing it.
export const accountTopUpCommand: Command = {
  name: 'account top-up',
  accepts: { flags: ['millicents'], positional: [1, 1] },
  usage: 'account top-up ID --millicents N   (adds N to the prepaid balance; 100,000 = 1 USD)',
  async run(args) {
    const id = uuidArgument(args.positional[0] ?? '', 'ID');
    const given = stringFlag(args, 'millicents');
    // One message for every wrong value (intFlag's says "non-negative", and 0 is refused too).
    if (given === undefined || !/^[1-9]\d*$/.test(given) || !Number.isSafeInteger(+given)) {
      throw new UsageError(
        `--millicents must be a positive integer, at most ${Number.MAX_SAFE_INTEGER}`,
      );
    }
    const millicents = Number(given);
    const account = await withPostgres((pool) => topUpAccount(pool, id, millicents));
    if (!account) throw new Error(`no account ${id}`);
    return accountJson(account);
  },
};
