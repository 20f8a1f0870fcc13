import { getAccount } from '../../store/account-repo';
import { listApiKeys } from '../../store/api-key-repo';
import { stringFlag, UsageError, uuidArgument, type Command } from '../command';
import { withPostgres } from './account-create';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const keyListCommand: Command = {
  name: 'key list',
  accepts: { flags: ['account'], positional: [0, 0] },
  usage: 'key list --account ID   prefixes and labels, never the secret',
  async run(args) {
    const accountId = stringFlag(args, 'account');
    if (!accountId) throw new UsageError('key list needs --account ID');
    uuidArgument(accountId, '--account');
    const keys = await withPostgres(async (pool) => {
      if (!(await getAccount(pool, accountId))) throw new Error(`no account ${accountId}`);
      return listApiKeys(pool, accountId);
    });
    return {
      ok: true,
      account_id: accountId,
      keys: keys.map((k) => ({
        id: k.id,
        label: k.label,
        prefix: k.prefix,
        created_at: k.created_at.toISOString(),
        last_used_at: iso(k.last_used_at),
        revoked_at: iso(k.revoked_at),
        allowance: k.allowance,
        rps: k.rps,
      })),
    };
  },
};
