import type { UsageSnapshot } from '../billing/snapshot';

// The usage headers of a count come from the ledger (contract §18.2, §18.3): one Postgres round
// trip per count, the largest part of a repeated count's CPU once its figures are cached (the
// socket write to Postgres alone). A dashboard asks many counts at once, of one account or of
// several, so the counts that ask in the same event-loop turn share one read of all their
// accounts, sent at the end of that turn: it starts after every one of them arrived, so each sees
// every change committed before it arrived, exactly as a read of its own would. A read already
// sent is never joined (it may have started before the joining request arrived).

interface Waiting {
  resolve(snapshot: UsageSnapshot): void;
  reject(err: unknown): void;
  promise: Promise<UsageSnapshot>;
}

export class UsageReads {
  /** The accounts asked for in this turn, read together at its end. */
  private turn: Map<string, Waiting> | null = null;

  constructor(
    private readonly read: (
      accountIds: readonly string[],
    ) => Promise<ReadonlyMap<string, UsageSnapshot>>,
  ) {}

  /** The account's usage, read from the ledger after this call (shared within one turn). */
  snapshot(accountId: string): Promise<UsageSnapshot> {
    if (!this.turn) {
      this.turn = new Map();
      setImmediate(() => this.send());
    }
    let waiting = this.turn.get(accountId);
    if (!waiting) {
      waiting = deferred();
      this.turn.set(accountId, waiting);
    }
    return waiting.promise;
  }

  private send(): void {
    const turn = this.turn;
    // Sent now: whoever asks from here on waits for a read of their own.
    this.turn = null;
    if (!turn) return;
    this.read([...turn.keys()]).then(
      (found) => {
        for (const [accountId, waiting] of turn) {
          const snapshot = found.get(accountId);
          if (snapshot) waiting.resolve(snapshot);
          else waiting.reject(new Error(`account ${accountId} not found`));
        }
      },
      (err: unknown) => {
        for (const waiting of turn.values()) waiting.reject(err);
      },
    );
  }
}

function deferred(): Waiting {
  let resolve!: (snapshot: UsageSnapshot) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<UsageSnapshot>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { resolve, reject, promise };
}
