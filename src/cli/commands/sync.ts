import { reindex, syncIncremental } from '../../search/sync';
import type { Command } from '../command';

export const syncCommand: Command = {
  name: 'sync',
  usage: 'sync                   index what changed since the last sync',
  async run(_args, deps) {
    return { ok: true, ...(await syncIncremental(await deps())) };
  },
};

export const reindexCommand: Command = {
  name: 'reindex',
  usage: 'reindex                rebuild into a new index, then swap the alias atomically',
  async run(_args, deps) {
    return { ok: true, ...(await reindex(await deps())) };
  },
};
