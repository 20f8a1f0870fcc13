/**
 * Calls that share a key run one batch at a time: a call made while no batch of its key is in
 * flight is sent at once, alone; the calls made while one is in flight wait for it and are then
 * sent together, as the next batch (at most `maxBatch` of them; the rest form the batch after).
 * No timer and no wait at low load: under load a batch holds what arrived during the one before.
 *
 * Why: one busy account sends many small charges at once, and each single statement costs
 * Postgres its own round trip, transaction and lock hand-over. Sent as one statement, they cost a
 * quarter to two fifths less Postgres CPU each (docs/benchmarks.md, one account's charges
 * together). Two batches of a key in flight at once measured no faster than one: they wait on the
 * same lock.
 *
 * `send` answers one result per item, in the items' order; a batch that fails (or answers the
 * wrong number of results) fails every call in it.
 */
export class KeyedBatches<I, R> {
  /** The calls waiting for their key's batch in flight; a key is present while one is. */
  private readonly waiting = new Map<string, Array<Pending<I, R>>>();
  /** Batches sent so far, and the calls they carried (the batch size is calls / batches). */
  batches = 0;
  calls = 0;

  constructor(
    private readonly send: (items: I[]) => Promise<R[]>,
    private readonly maxBatch = 64,
  ) {}

  run(key: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const pending = { item, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(pending);
        return;
      }
      this.waiting.set(key, []);
      this.start(key, [pending]);
    });
  }

  private start(key: string, batch: Array<Pending<I, R>>): void {
    this.batches += 1;
    this.calls += batch.length;
    // A send that throws synchronously fails its batch like one that rejects.
    void Promise.resolve()
      .then(() => this.send(batch.map((p) => p.item)))
      .then((results) => {
        if (results.length !== batch.length)
          throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
        batch.forEach((p, i) => p.resolve(results[i] as R));
      })
      .catch((err: unknown) => batch.forEach((p) => p.reject(err)))
      .finally(() => {
        const queue = this.waiting.get(key) ?? [];
        if (queue.length === 0) {
          this.waiting.delete(key);
          return;
        }
        this.start(key, queue.splice(0, this.maxBatch));
      });
  }
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}
