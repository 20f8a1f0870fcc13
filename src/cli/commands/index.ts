import type { Command } from '../command';
import { accountCreateCommand } from './account-create';
import { accountTopUpCommand } from './account-top-up';
import { accountUpdateCommand } from './account-update';
import { keyCreateCommand } from './key-create';
import { keyListCommand } from './key-list';
import { keyRevokeCommand } from './key-revoke';
import { deleteCommand } from './delete';
import { importCommand } from './import';
import { migrateCommand } from './migrate';
import { seedCommand } from './seed';
import { reindexCommand, syncCommand } from './sync';
import { usageCommand } from './usage';
import { reportCommand } from './report';

// Every admin command of contract §22.9. Each lives in its own file.
export const commands: Command[] = [
  migrateCommand,
  importCommand,
  deleteCommand,
  syncCommand,
  reindexCommand,
  seedCommand,
  accountCreateCommand,
  accountUpdateCommand,
  accountTopUpCommand,
  keyCreateCommand,
  keyListCommand,
  keyRevokeCommand,
  usageCommand,
  reportCommand,
];
