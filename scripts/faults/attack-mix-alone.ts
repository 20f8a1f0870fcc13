import { seedRecords } from '../../src/service/seed-records';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { attackMix } from './attack-mix';
import { ApiInstance, freePort, killStartedChildren, stopChildrenOnInterrupt } from './procs';
import { exitAfter, exitAtDeadline, loadAverage, setUpRun, within } from './run';

// `npm run faults:attack`: the attack mix alone (scripts/faults/attack-mix.ts), against one API
// instance over the search engine at OPENSEARCH_URL (the shared single node is fine: nothing is
// stopped), without the cluster that the full `npm run faults` starts. Exit 0 when it held.

const CURSOR_KEYS = 'attack1=attack-mix-cursor-signing-secret-0123456789';

async function main(): Promise<void> {
  const searchUrl = process.env.OPENSEARCH_URL;
  if (!searchUrl) throw new Error('set OPENSEARCH_URL (the run never starts a search engine)');
  const run = await setUpRun('attack', searchUrl, CURSOR_KEYS);
  const instance = new ApiInstance(await freePort(), {
    DATABASE_URL: run.databaseUrl,
    OPENSEARCH_URL: searchUrl,
    CURSOR_SIGNING_KEYS: CURSOR_KEYS,
    LOG_LEVEL: 'warn',
  });
  let ok = false;
  try {
    await seedRecords(run.deps, 1500, 7);
    const key = async (input: Parameters<typeof createAccount>[1]) =>
      (
        await createApiKey(run.deps.pool, {
          accountId: (await createAccount(run.deps.pool, input)).id,
        })
      ).key;
    const payingKeys = [
      await key({ plan: 'builder', balance_millicents: 2_000_000, rps_override: 1000 }),
    ];
    const batchKey = await key({ plan: 'free' });
    await within(300_000, 'instance ready', instance.start());
    console.log(`load average before: ${loadAverage()}`);
    // ATTACK_BATCHES=0 leaves the MCP batches out (to see the other attacks' effect alone).
    const batches = process.env.ATTACK_BATCHES !== '0';
    const result = await attackMix({
      url: instance.url,
      payingKeys,
      batchKey: batches ? batchKey : undefined,
    });
    ok = result.ok;
    console.log(`\n== attack mix: ${ok ? 'PASS' : 'FAIL'}`);
    for (const [k, v] of Object.entries(result.figures))
      console.log(`   ${k}: ${JSON.stringify(v)}`);
    console.log(`   loadAverage: ${loadAverage()}`);
  } finally {
    await exitAfter(ok ? 0 : 1, async () => {
      await instance.stop();
      await run.close();
    });
  }
}

stopChildrenOnInterrupt();
exitAtDeadline(15 * 60_000, 'attack mix');
main().catch((err: unknown) => {
  console.error(err);
  killStartedChildren();
  process.exit(1);
});
