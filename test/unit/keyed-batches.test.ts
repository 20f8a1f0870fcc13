import { KeyedBatches, QueueWaitExpired } from '../../src/store/keyed-batches';

/** Batches the test answers by hand, recording what each carried. */
function manualBatches(maxBatch?: number, maxWaitMs?: number) {
  const sent: Array<{
    items: string[];
    answer: (results: string[]) => void;
    fail: (err: Error) => void;
  }> = [];
  const batches = new KeyedBatches<string, string>(
    (items) =>
      new Promise<string[]>((resolve, reject) => {
        sent.push({ items, answer: resolve, fail: reject });
      }),
    maxBatch,
    maxWaitMs,
  );
  const batch = (i: number) => {
    const b = sent[i];
    if (!b) throw new Error(`batch ${i} never sent`);
    return b;
  };
  return { batches, sent, batch };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('KeyedBatches: calls of one key sent together while one batch is in flight', () => {
  it('sends a call at once, alone, when no batch of its key is in flight', async () => {
    const { batches, sent, batch } = manualBatches();
    const a = batches.run('k', 'a');
    await settle();
    expect(sent.map((b) => b.items)).toEqual([['a']]);
    batch(0).answer(['A']);
    await expect(a).resolves.toBe('A');
  });

  it('sends the calls made meanwhile as the next batch, each answered its own result', async () => {
    const { batches, sent, batch } = manualBatches();
    const a = batches.run('k', 'a');
    await settle();
    const rest = ['b', 'c', 'd'].map((x) => batches.run('k', x));
    await settle();
    // Nothing more is sent while the first batch is in flight.
    expect(sent).toHaveLength(1);
    batch(0).answer(['A']);
    await a;
    await settle();
    expect(sent.map((b) => b.items)).toEqual([['a'], ['b', 'c', 'd']]);
    batch(1).answer(['B', 'C', 'D']);
    await expect(Promise.all(rest)).resolves.toEqual(['B', 'C', 'D']);
    expect([batches.batches, batches.calls]).toEqual([2, 4]);
  });

  it('keeps keys apart: another key is sent at once', async () => {
    const { batches, sent } = manualBatches();
    void batches.run('k1', 'a');
    void batches.run('k1', 'b');
    void batches.run('k2', 'c');
    await settle();
    expect(sent.map((b) => b.items)).toEqual([['a'], ['c']]);
  });

  it('fails every call of a failed batch, and goes on with the next one', async () => {
    const { batches, sent, batch } = manualBatches();
    const a = batches.run('k', 'a');
    await settle();
    const b = batches.run('k', 'b');
    const c = batches.run('k', 'c');
    batch(0).answer(['A']);
    await a;
    await settle();
    batch(1).fail(new Error('store down'));
    await expect(b).rejects.toThrow('store down');
    await expect(c).rejects.toThrow('store down');
    // The key is free again: the next call goes at once.
    const d = batches.run('k', 'd');
    await settle();
    expect(sent.map((x) => x.items)).toEqual([['a'], ['b', 'c'], ['d']]);
    batch(2).answer(['D']);
    await expect(d).resolves.toBe('D');
  });

  it('fails the batch when the results do not match its calls one to one', async () => {
    const { batches, batch } = manualBatches();
    const a = batches.run('k', 'a');
    await settle();
    batch(0).answer(['A', 'extra']);
    await expect(a).rejects.toThrow('a batch of 1 answered 2 results');
  });

  it('a send that throws synchronously fails its batch', async () => {
    const batches = new KeyedBatches<string, string>(() => {
      throw new Error('no connection');
    });
    await expect(batches.run('k', 'a')).rejects.toThrow('no connection');
  });

  it('sends at most maxBatch calls a batch; the rest go in the batch after', async () => {
    const { batches, sent, batch } = manualBatches(2);
    void batches.run('k', 'a');
    await settle();
    const rest = ['b', 'c', 'd'].map((x) => batches.run('k', x));
    batch(0).answer(['A']);
    await settle();
    await settle();
    expect(sent.map((b) => b.items)).toEqual([['a'], ['b', 'c']]);
    batch(1).answer(['B', 'C']);
    await settle();
    await settle();
    expect(sent.map((b) => b.items)).toEqual([['a'], ['b', 'c'], ['d']]);
    batch(2).answer(['D']);
    await expect(Promise.all(rest)).resolves.toEqual(['B', 'C', 'D']);
  });
});

describe('KeyedBatches: a call waits for the batch in flight at most maxWaitMs', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('fails a call still waiting at maxWaitMs, never sends it, and sends the others', async () => {
    const { batches, sent, batch } = manualBatches(undefined, 300);
    const a = batches.run('k', 'a');
    await settle();
    const b = batches.run('k', 'b');
    jest.advanceTimersByTime(200);
    const c = batches.run('k', 'c');
    jest.advanceTimersByTime(100);
    // b has waited 300 ms for a's batch: it fails; c (100 ms) still waits.
    await expect(b).rejects.toBeInstanceOf(QueueWaitExpired);
    await expect(b).rejects.toThrow('timed out after 300 ms');
    batch(0).answer(['A']);
    await expect(a).resolves.toBe('A');
    await settle();
    expect(sent.map((x) => x.items)).toEqual([['a'], ['c']]);
    batch(1).answer(['C']);
    await expect(c).resolves.toBe('C');
  });

  it('a call sent in time is not failed when maxWaitMs passes while its batch runs', async () => {
    const { batches, batch } = manualBatches(undefined, 300);
    const a = batches.run('k', 'a');
    await settle();
    const b = batches.run('k', 'b');
    jest.advanceTimersByTime(100);
    batch(0).answer(['A']);
    await a;
    await settle();
    // b went in the second batch before its limit; that batch outlasts the limit and still answers.
    jest.advanceTimersByTime(1000);
    batch(1).answer(['B']);
    await expect(b).resolves.toBe('B');
  });

  it('the first call of a key is sent at once, whatever the limit', async () => {
    const { batches, sent, batch } = manualBatches(undefined, 1);
    const a = batches.run('k', 'a');
    jest.advanceTimersByTime(1000);
    await settle();
    expect(sent.map((x) => x.items)).toEqual([['a']]);
    batch(0).answer(['A']);
    await expect(a).resolves.toBe('A');
  });
});
