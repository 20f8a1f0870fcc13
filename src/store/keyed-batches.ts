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
 *
 * `maxWaitMs`: how long a call may wait for the batch in flight before it is sent. Past it the call
 * fails with QueueWaitExpired, never sent: the batch ahead of it may be waiting out its own
 * deadline, and the call's deadline is the same (contract §20.3), not twice it.
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
    private readonly maxWaitMs = Infinity,
  ) {}

  run(key: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const pending: Pending<I, R> = { item, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(pending);
        if (Number.isFinite(this.maxWaitMs)) pending.expiry = this.expire(queue, pending);
        return;
      }
      this.waiting.set(key, []);
      this.start(key, [pending]);
    });
  }

  /** Takes the call out of its queue and fails it when it has waited maxWaitMs. */
  private expire(queue: Array<Pending<I, R>>, pending: Pending<I, R>): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const at = queue.indexOf(pending);
      if (at < 0) return;
      queue.splice(at, 1);
      pending.reject(new QueueWaitExpired(this.maxWaitMs));
    }, this.maxWaitMs);
    // A call waiting never keeps the process alive on its own.
    timer.unref();
    return timer;
  }

  private start(key: string, batch: Array<Pending<I, R>>): void {
    for (const p of batch) if (p.expiry) clearTimeout(p.expiry);
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
  /** The timer that fails the call if it is still waiting at maxWaitMs. */
  expiry?: NodeJS.Timeout;
}

/** A call that waited `maxWaitMs` for its key's batch in flight, and was never sent. */
export class QueueWaitExpired extends Error {
  constructor(readonly waitedMs: number) {
    super(`timed out after ${waitedMs} ms waiting for the statement ahead of it; never sent`);
    this.name = 'QueueWaitExpired';
  }
}
