import type { Command } from '../command';
import { importCommand } from './import';
import { migrateCommand } from './migrate';
import { seedCommand } from './seed';
import { reindexCommand, syncCommand } from './sync';

// Every admin command of decisions 10. Each lives in its own file.
export const commands: Command[] = [
  migrateCommand,
  importCommand,
  syncCommand,
  reindexCommand,
  seedCommand,
];
