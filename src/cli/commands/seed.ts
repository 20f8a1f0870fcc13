import { seedRecords } from '../../service/seed-records';
import { intFlag, UsageError, type Command } from '../command';

export const seedCommand: Command = {
  name: 'seed',
  accepts: { flags: ['count', 'seed'], positional: [0, 0] },
  usage: 'seed --count N [--seed S]   deterministic synthetic records, stored and indexed',
  help: `
Generates N realistic synthetic records (the same N records for the same --seed, default 1),
inserts them into Postgres in batches, then indexes what changed. A record whose id is already
stored, or was deleted, is left as it is: a seed never overwrites an import or restores a record.

  --count N   how many records (required)
  --seed S    the generator's seed (default 1)

Progress (phases store, then index) goes to stderr every 2 seconds: records done, rate, ETA.
Resumable: if a run stops part-way, run the same command again; stored records are skipped, and
indexing continues from its watermark. Bulk calls that meet 429, 5xx or a timeout
are retried with backoff.`,
  async run(args, capabilities, io) {
    const count = intFlag(args, 'count');
    if (count === undefined) throw new UsageError('seed needs --count N');
    // Every flag before anything starts: a bad --seed made the database and the index first.
    const seed = intFlag(args, 'seed') ?? 1;
    return { ...(await seedRecords((await capabilities()).deps, count, seed, io?.progress)) };
  },
};
