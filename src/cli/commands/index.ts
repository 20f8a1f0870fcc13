import type { Command } from '../command';
import { migrateCommand } from './migrate';

// Every admin command of decisions 10. Each lives in its own file.
export const commands: Command[] = [migrateCommand];
