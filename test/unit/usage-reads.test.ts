import type { UsageSnapshot } from '../../src/billing/snapshot';
import { UsageReads } from '../../src/service/usage-reads';

// The counts asked in one event-loop turn share one ledger read of all their accounts, and that
// read is sent only after all of them asked, so none sees older usage than a read of its own
// would show.

const turn = () => new Promise((resolve) => setImmediate(resolve));
const snapshotOf = (account: string, n: number) =>
  ({ account, used: n }) as unknown as UsageSnapshot;

function ledger(known = (id: string) => id !== 'gone') {
  const started: string[][] = [];
  let n = 0;
  let failNext = false;
  const reads = new UsageReads(async (subjects) => {
    // Accounts only here: a subject with a key is read as the key (usage-cache-keys.test.ts).
    const accountIds = subjects as readonly string[];
    started.push([...accountIds]);
    if (failNext) {
      failNext = false;
      throw new Error('ledger down');
    }
    n += 1;
    return new Map(accountIds.filter(known).map((id) => [id, snapshotOf(id, n)]));
  });
  return { reads, started, fail: () => (failNext = true) };
}

it('shares one read among the calls of one turn, sent after the last of them', async () => {
  const { reads, started } = ledger();
  const a = reads.snapshot('acc');
  const b = reads.snapshot('acc');
  expect(started).toEqual([]); // nothing sent while callers may still join
  expect(await a).toBe(await b);
  expect(started).toEqual([['acc']]);
});

it('never joins a read already sent: a later call gets a read of its own', async () => {
  const { reads, started } = ledger();
  const a = reads.snapshot('acc');
  await turn();
  expect(started).toEqual([['acc']]); // sent
  const b = reads.snapshot('acc');
  expect(await b).not.toBe(await a);
  expect(started).toEqual([['acc'], ['acc']]);
});

it('reads the accounts of one turn together, and hands each its own snapshot', async () => {
  const { reads, started } = ledger();
  const [a, b, a2] = await Promise.all([
    reads.snapshot('one'),
    reads.snapshot('two'),
    reads.snapshot('one'),
  ]);
  expect(a).toEqual(snapshotOf('one', 1));
  expect(b).toEqual(snapshotOf('two', 1));
  expect(a2).toBe(a);
  expect(started).toEqual([['one', 'two']]);
});

it('rejects only the caller of an account the read did not find', async () => {
  const { reads } = ledger();
  const [found, gone] = await Promise.allSettled([reads.snapshot('one'), reads.snapshot('gone')]);
  expect(found).toEqual({ status: 'fulfilled', value: snapshotOf('one', 1) });
  expect(gone).toMatchObject({ status: 'rejected', reason: new Error('account gone not found') });
});

it("hands a failed read's error to every caller of its turn, and the next turn reads again", async () => {
  const { reads, started, fail } = ledger();
  fail();
  const calls = [reads.snapshot('acc'), reads.snapshot('other')];
  for (const call of calls) await expect(call).rejects.toThrow('ledger down');
  await expect(reads.snapshot('acc')).resolves.toEqual(snapshotOf('acc', 1));
  expect(started).toEqual([['acc', 'other'], ['acc']]);
});
