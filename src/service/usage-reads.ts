import { usageKey, type UsageSnapshot, type UsageSubject } from '../billing/snapshot';

// The usage headers of a count come from the ledger (contract §18.2, §18.3): one Postgres round
// trip per count, the largest part of a repeated count's CPU once its figures are cached (the
// socket write to Postgres alone). A dashboard asks many counts at once, of one account or of
// several, so the counts that ask in the same event-loop turn share one read of all their
// accounts, sent at the end of that turn: it starts after every one of them arrived, so each sees
// every change committed before it arrived, exactly as a read of its own would. A read already
// sent is never joined (it may have started before the joining request arrived). A subject with a
// key is read as that key sees it (its own allowance, contract §15.4) in the same statement as the
// accounts; a bare account id, as the account.

interface Waiting {
  resolve(snapshot: UsageSnapshot): void;
  reject(err: unknown): void;
  promise: Promise<UsageSnapshot>;
}

export class UsageReads {
  /** The accounts (and keys) asked for in this turn, by usageKey, read together at its end. */
  private turn: Map<string, Waiting & { who: string | UsageSubject }> | null = null;

  constructor(
    private readonly read: (
      subjects: readonly (string | UsageSubject)[],
    ) => Promise<ReadonlyMap<string, UsageSnapshot>>,
  ) {}

  /** The account's (or key's) usage, read from the ledger after this call (shared within one turn). */
  snapshot(who: string | UsageSubject): Promise<UsageSnapshot> {
    if (!this.turn) {
      this.turn = new Map();
      setImmediate(() => this.send());
    }
    // Only the subject's own fields: a caller may pass a wider object.
    const subject = typeof who === 'string' ? who : { accountId: who.accountId, keyId: who.keyId };
    const name = usageKey(subject);
    let waiting = this.turn.get(name);
    if (!waiting) {
      waiting = { ...deferred(), who: subject };
      this.turn.set(name, waiting);
    }
    return waiting.promise;
  }

  private send(): void {
    const turn = this.turn;
    // Sent now: whoever asks from here on waits for a read of their own.
    this.turn = null;
    if (!turn) return;
    this.read([...turn.values()].map((w) => w.who)).then(
      (found) => {
        for (const [name, waiting] of turn) {
          const snapshot = found.get(name);
          if (snapshot) waiting.resolve(snapshot);
          else waiting.reject(new Error(`account ${name.split(' ')[0] ?? name} not found`));
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
