import { importNdjson } from '../../service/import-records';
import { UsageError, type Command } from '../command';

export const importCommand: Command = {
  name: 'import',
  usage:
    'import FILE            NDJSON of public records and deletions; exit status 1 when any line was bad',
  help: `
Reads FILE as NDJSON, one public record (plus evidence) a line, taken as canonical, or a deletion
line {"id": "UUID", "deleted": true} (a change-feed tombstone, changed_at optional and ignored)
that removes a stored record as \`delete ID\` does: gone from detail, list and count, a tombstone in
the change feed. Lines apply in file order; valid lines are written and indexed before the command
returns; a bad line (invalid record, or a deletion of an id that is not stored at that point) is
reported with its number and reasons and nothing of it is written. Exit status 1 when any line was
bad. Progress (lines read, then records indexed) on stderr every 2 seconds.`,
  async run(args, capabilities, io) {
    const file = args.positional[0];
    if (!file) throw new UsageError('import needs a FILE');
    return { ...(await importNdjson((await capabilities()).deps, file, io?.progress)) };
  },
};
