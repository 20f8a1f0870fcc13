import { createApiKey } from '../../store/api-key-repo';
import { intFlag, stringFlag, UsageError, uuidArgument, type Command } from '../command';
import { withPostgres } from './account-create';

export const keyCreateCommand: Command = {
  name: 'key create',
  accepts: { flags: ['account', 'label', 'allowance', 'rps'], positional: [0, 0] },
  usage: 'key create --account ID [--label TEXT] [--allowance N] [--rps N]   prints the key once',
  async run(args) {
    const accountId = stringFlag(args, 'account');
    if (!accountId) throw new UsageError('key create needs --account ID');
    uuidArgument(accountId, '--account');
    const input = {
      accountId,
      label: stringFlag(args, 'label'),
      allowance: intFlag(args, 'allowance'),
      rps: intFlag(args, 'rps'),
    };
    const created = await withPostgres((pool) => createApiKey(pool, input));
    // The only time the secret is ever shown (contract §14.2).
    return {
      ok: true,
      id: created.id,
      key: created.key,
      prefix: created.prefix,
      label: created.label,
      account_id: created.account_id,
      allowance: created.allowance,
      rps: created.rps,
      created_at: created.created_at.toISOString(),
    };
  },
};
