import { reindex, syncIncremental } from '../../search/sync';
import type { Command } from '../command';

export const syncCommand: Command = {
  name: 'sync',
  accepts: { flags: [], positional: [0, 0] },
  usage: 'sync                   index what changed since the last sync',
  help: `
Indexes every record changed since the last sync (Postgres is canonical; the index follows it),
then refreshes. Safe to run twice at once (the second waits) and resumable (the watermark advances
after each batch). Progress on stderr every 2 seconds. "refreshed": false in the result means the
final refresh kept failing: the records are indexed and visible within a second anyway; run sync
again to refresh.`,
  async run(_args, capabilities, io) {
    return {
      ok: true,
      ...(await syncIncremental({ ...(await capabilities()).deps, progress: io?.progress })),
    };
  },
};

export const reindexCommand: Command = {
  name: 'reindex',
  accepts: { flags: [], positional: [0, 0] },
  usage: 'reindex                rebuild into a new index, then swap the alias atomically',
  help: `
Builds a new index from one consistent snapshot of Postgres, swaps the alias to it in one atomic
call (reads never see a missing or half-filled index), then catches up with what changed
meanwhile. The old index is kept, retired, for RETIRED_INDEX_GRACE_MS (10 minutes by default) so
that a search already on its way to it finishes; the first sync, import, seed or reindex after
that deletes it (docs/operations.md). Progress on stderr every 2 seconds.`,
  async run(_args, capabilities, io) {
    return {
      ok: true,
      ...(await reindex({ ...(await capabilities()).deps, progress: io?.progress })),
    };
  },
};
