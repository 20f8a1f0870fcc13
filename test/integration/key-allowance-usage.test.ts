import { keyAllowanceBehaviour, GROWTH_100, KEY_ALLOWANCE } from '../behaviour/key-allowance-usage';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext } from '../support/harness';

// test/behaviour/key-allowance-usage.ts over Postgres, OpenSearch and Redis (the Postgres meter);
// test/fast/key-allowance-usage.test.ts runs it over the in-memory meter.

keyAllowanceBehaviour(async () => {
  const ctx = await createTestContext();
  await storeAndIndex(
    ctx.deps,
    Array.from({ length: 6 }, () => makeRecord()),
  );
  return {
    baseUrl: ctx.baseUrl,
    keys: async () => {
      const account = await createAccount(ctx.deps.pool, GROWTH_100);
      const limited = await createApiKey(ctx.deps.pool, {
        accountId: account.id,
        allowance: KEY_ALLOWANCE,
      });
      const plain = await createApiKey(ctx.deps.pool, { accountId: account.id });
      return { limited: limited.key, plain: plain.key };
    },
    close: () => ctx.close(),
  };
});
