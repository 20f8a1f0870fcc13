import { revokeApiKey } from '../../store/api-key-repo';
import { uuidArgument, type Command } from '../command';
import { withPostgres } from './account-create';

export const keyRevokeCommand: Command = {
  name: 'key revoke',
  accepts: { flags: [], positional: [1, 1] },
  usage: 'key revoke KEY_ID      immediate (within 1 s), idempotent, no replacement is created',
  async run(args) {
    // Exactly one, checked before it runs (checkArguments).
    const id = uuidArgument(args.positional[0] ?? '', 'KEY_ID');
    const revokedAt = await withPostgres((pool) => revokeApiKey(pool, id));
    if (!revokedAt) throw new Error(`no key ${id}`);
    return { ok: true, id, revoked_at: revokedAt.toISOString() };
  },
};
