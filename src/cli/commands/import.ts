import { importNdjson } from '../../service/import-records';
import { UsageError, type Command } from '../command';

export const importCommand: Command = {
  name: 'import',
  usage: 'import FILE            NDJSON of public records; exit status 1 when any line was bad',
  async run(args, deps) {
    const file = args.positional[0];
    if (!file) throw new UsageError('import needs a FILE');
    return { ...(await importNdjson(await deps(), file)) };
  },
};
