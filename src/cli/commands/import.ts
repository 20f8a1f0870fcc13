import { importNdjson } from '../../service/import-records';
import { UsageError, type Command } from '../command';

export const importCommand: Command = {
  name: 'import',
  usage: 'import FILE            NDJSON of public records; exit status 1 when any line was bad',
  help: `
Reads FILE as NDJSON, one public record (plus evidence) a line, taken as canonical. Valid lines are
upserted by id and indexed before the command returns; a bad line is reported with its number and
reasons and nothing of it is written. Exit status 1 when any line was bad. Progress (lines read,
then records indexed) on stderr every 2 seconds.`,
  async run(args, deps, io) {
    const file = args.positional[0];
    if (!file) throw new UsageError('import needs a FILE');
    return { ...(await importNdjson(await deps(), file, io?.progress)) };
  },
};
