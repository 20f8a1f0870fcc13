import { seedRecords } from '../../service/seed-records';
import { intFlag, UsageError, type Command } from '../command';

export const seedCommand: Command = {
  name: 'seed',
  usage: 'seed --count N [--seed S]   deterministic synthetic records, stored and indexed',
  async run(args, deps) {
    const count = intFlag(args, 'count');
    if (count === undefined) throw new UsageError('seed needs --count N');
    return { ...(await seedRecords(await deps(), count, intFlag(args, 'seed') ?? 1)) };
  },
};
