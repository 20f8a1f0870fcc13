import type { UsageSnapshot } from '../../src/billing/snapshot';
import { UsageReads } from '../../src/service/usage-reads';

// The counts of one account asked in one event-loop turn share one ledger read,
// and that read is sent only after all of them asked, so none sees older usage than a read of
// its own would show.

const turn = () => new Promise((resolve) => setImmediate(resolve));
const snapshotOf = (n: number) => ({ used: n }) as unknown as UsageSnapshot;

function ledger() {
  const started: string[] = [];
  let n = 0;
  let failNext = false;
  const reads = new UsageReads(async (accountId) => {
    started.push(accountId);
    if (failNext) {
      failNext = false;
      throw new Error('ledger down');
    }
    return snapshotOf(++n);
  });
  return { reads, started, fail: () => (failNext = true) };
}

it('shares one read among the calls of one turn, sent after the last of them', async () => {
  const { reads, started } = ledger();
  const a = reads.snapshot('acc');
  const b = reads.snapshot('acc');
  expect(started).toEqual([]); // nothing sent while callers may still join
  expect(await a).toBe(await b);
  expect(started).toEqual(['acc']);
});

it('never joins a read already sent: a later call gets a read of its own', async () => {
  const { reads, started } = ledger();
  const a = reads.snapshot('acc');
  await turn();
  expect(started).toEqual(['acc']); // sent
  const b = reads.snapshot('acc');
  expect(await b).not.toBe(await a);
  expect(started).toEqual(['acc', 'acc']);
});

it('keeps accounts apart', async () => {
  const { reads, started } = ledger();
  const [a, b] = await Promise.all([reads.snapshot('one'), reads.snapshot('two')]);
  expect(a).not.toBe(b);
  expect(started.sort()).toEqual(['one', 'two']);
});

it("hands a failed read's error to every caller of its turn, and the next turn reads again", async () => {
  const { reads, started, fail } = ledger();
  fail();
  const calls = [reads.snapshot('acc'), reads.snapshot('acc')];
  for (const call of calls) await expect(call).rejects.toThrow('ledger down');
  await expect(reads.snapshot('acc')).resolves.toEqual(snapshotOf(1));
  expect(started).toEqual(['acc', 'acc']);
});
