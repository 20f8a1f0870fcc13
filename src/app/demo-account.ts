import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../service/context';
import { anyAccountExists, createAccount } from '../store/account-repo';
import { withAdvisoryLock } from '../store/advisory-lock';
import { createApiKey } from '../store/api-key-repo';

export const DEMO_KEY_FILE = path.resolve(__dirname, '../../.cache/demo-api-key');

/**
 * A first `npm start` on an empty database leaves something to try: a Free demo account
 * whose key is written to an ignored file readable only by its owner. Only the path is printed,
 * never the key.
 */
export async function ensureDemoAccount(deps: AppDeps): Promise<void> {
  // Two local instances starting at once must not both find no account and create two.
  await withAdvisoryLock(deps.pool, 'demo-account', () => createDemoAccountIfEmpty(deps));
}

async function createDemoAccountIfEmpty(deps: AppDeps): Promise<void> {
  if (await anyAccountExists(deps.pool)) return;
  const account = await createAccount(deps.pool, { plan: 'free', name: 'Local demo account' });
  const key = await createApiKey(deps.pool, { accountId: account.id, label: 'demo' });
  mkdirSync(path.dirname(DEMO_KEY_FILE), { recursive: true });
  writeFileSync(DEMO_KEY_FILE, key.key + '\n', { mode: 0o600 });
  deps.logger.info('created a demo account; its API key is in the file named here', {
    account_id: account.id,
    key_file: DEMO_KEY_FILE,
  });
}
