import { importNdjson } from '../../service/import-records';
import { userPath, type Command } from '../command';

export const importCommand: Command = {
  name: 'import',
  accepts: { flags: ['no-sync'], positional: [1, 1] },
  usage:
    'import FILE [--no-sync]   NDJSON of public records and deletions; exit status 1 when any line was bad',
  help: `
Reads FILE as NDJSON, one public record (plus evidence) a line, taken as canonical, or a deletion
line {"id": "UUID", "deleted": true} (a change-feed tombstone, changed_at optional and ignored)
that removes a stored record as \`delete ID\` does: gone from detail, list and count, a tombstone in
the change feed. Lines apply in file order; valid lines are written and indexed before the command
returns; a bad line (invalid record, or a deletion of an id that is not stored at that point) is
reported with its number and reasons and nothing of it is written. Exit status 1 when any line was
bad. Progress (lines read, then records indexed) on stderr every 2 seconds.

--no-sync   write the store only ("sync": null), for bulk loads: the search engine is not
            contacted, so it works while it is unreachable. The API processes' index follower
            (SYNC_INTERVAL_MS) indexes the records, and indexes deletions away, by itself.`,
  async run(args, capabilities, io) {
    // Exactly one FILE, checked before it runs (checkArguments).
    const file = userPath(args.positional[0] ?? '');
    const sync = !args.flags.has('no-sync');
    const { deps } = await capabilities({ searchEngine: sync });
    return { ...(await importNdjson(deps, file, io?.progress, { sync })) };
  },
};
