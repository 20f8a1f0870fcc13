import type { UsageSnapshot } from '../billing/snapshot';

// The usage headers of a count come from the ledger (contract §18.2, §18.3): one Postgres round
// trip per count, the largest part of a repeated count's CPU once its figures are cached (the
// socket write to Postgres alone). A dashboard asks many counts of one account
// at once, so the counts of one account that ask in the same event-loop turn share one read, sent
// at the end of that turn: it starts after every one of them arrived, so each sees every change
// committed before it arrived, exactly as a read of its own would. A read already sent is never
// joined (it may have started before the joining request arrived).

export class UsageReads {
  private readonly waiting = new Map<string, Promise<UsageSnapshot>>();

  constructor(private readonly read: (accountId: string) => Promise<UsageSnapshot>) {}

  /** The account's usage, read from the ledger after this call (shared within one turn). */
  snapshot(accountId: string): Promise<UsageSnapshot> {
    let read = this.waiting.get(accountId);
    if (!read) {
      read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        // Sent now: whoever asks from here on waits for a read of their own.
        this.waiting.delete(accountId);
        return this.read(accountId);
      });
      this.waiting.set(accountId, read);
    }
    return read;
  }
}
