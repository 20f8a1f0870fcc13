import { keyAllowanceBehaviour, GROWTH_100, KEY_ALLOWANCE } from '../behaviour/key-allowance-usage';
import { makeRecord } from '../support/fixtures';
import { startFastApp } from './support/fast-app';

// test/behaviour/key-allowance-usage.ts over the in-memory meter (billing/memory-meter.ts).

keyAllowanceBehaviour(async () => {
  const app = await startFastApp(Array.from({ length: 6 }, () => makeRecord()));
  const { accounts } = app.world;
  return {
    baseUrl: app.baseUrl,
    keys: async () => {
      const account = accounts.createAccount(GROWTH_100);
      return {
        limited: accounts.createKey(account.id, { allowance: KEY_ALLOWANCE }).key,
        plain: accounts.createKey(account.id).key,
      };
    },
    close: () => app.close(),
  };
});
