import { deleteRecords } from '../../service/delete-records';
import type { Command } from '../command';

export const deleteCommand: Command = {
  name: 'delete',
  accepts: { flags: [], positional: [1, Number.POSITIVE_INFINITY] },
  usage:
    'delete ID [ID...]      remove records (tombstones in the change feed); exit 1 when any id was unknown',
  async run(args, capabilities) {
    return { ...(await deleteRecords((await capabilities()).deps, args.positional)) };
  },
};
