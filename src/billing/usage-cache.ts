import { accountView, usageKey, type UsageSnapshot, type UsageSubject } from './snapshot';
import { Lru } from '../infra/lru';

/**
 * The last usage snapshot this process saw per account (or per key, see below), for responses
 * that must carry the usage headers of contract §18 but should not cost the database anything:
 * 429s (contract §17.2.2: "a flood of refused calls costs the database nothing") and MCP protocol
 * messages (initialize, tools/list). Every delivery and every fresh snapshot (counts, errors of
 * admitted calls) refreshes it.
 * - `latest`: for 429s. Any snapshot of the current period will do: a limited account is one that
 *   is flooding, and its admitted calls (one window's worth a second) keep the entry fresh.
 * - `fresh`: at most `maxAgeMs` (1 s, as every account change takes effect) old: for protocol
 *   messages, which are admitted, and for the 403 of a refused account, which has no admitted
 *   calls to refresh its entry (a top-up or a plan change made before it was refused never
 *   showed); one query a second at most, for either, however many come.
 * Past either, one query per entry refreshes it, shared by every concurrent caller.
 * Responses that deliver or count always read the ledger itself.
 *
 * A key of its own allowance sees other figures than its account (contract §15.4). Entries named
 * by an account id alone hold the account's own figures (snapshot.accountView), whichever key the
 * snapshot was read for, so that one key's figures never reach another key of the account; named
 * by a subject with a key, an entry is that key's (usageKey).
 */
export class UsageCache {
  private readonly entries: Lru<string, { at: number; seq: number; snapshot: UsageSnapshot }>;
  private readonly inflight = new Map<string, Promise<UsageSnapshot>>();
  /** Orders the entries' refreshes: the clock's milliseconds may not tell two apart. */
  private seq = 0;

  constructor(
    private readonly maxAgeMs = 1_000,
    maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new Lru(maxEntries);
  }

  remember(who: string | UsageSubject, snapshot: UsageSnapshot): void {
    // The least recently refreshed go first past the bound: reads do not reorder (see get).
    const seq = ++this.seq;
    this.entries.set(usageKey(who), { at: this.now(), seq, snapshot: viewFor(who, snapshot) });
    // A key's snapshot holds its account's figures too: the account's entry is refreshed with
    // them, or the deliveries of keys of their own allowance would never reach it (a 403 of the
    // account then showed the figures of before them).
    if (typeof who !== 'string' && who.keyId !== undefined) {
      this.entries.set(who.accountId, { at: this.now(), seq, snapshot: accountView(snapshot) });
    }
  }

  /**
   * The last snapshot of the current period, whatever its age, without asking the ledger: for a
   * response whose ledger is what failed (503 metering_unavailable).
   */
  known(who: string | UsageSubject): UsageSnapshot | undefined {
    const hit = this.entries.get(usageKey(who), { use: false });
    return hit && this.now() < hit.snapshot.periodEnd.getTime() ? hit.snapshot : undefined;
  }

  /** A snapshot of the current period, whatever its age, else one shared `fetch`. */
  latest(who: string | UsageSubject, fetch: () => Promise<UsageSnapshot>): Promise<UsageSnapshot> {
    return this.get(who, Number.POSITIVE_INFINITY, fetch);
  }

  /** A snapshot at most `maxAgeMs` old, else one shared `fetch`. */
  fresh(who: string | UsageSubject, fetch: () => Promise<UsageSnapshot>): Promise<UsageSnapshot> {
    return this.get(who, this.maxAgeMs, fetch);
  }

  /**
   * A key's entry is older than its account's: another key of the account has delivered since,
   * which moves this key's figures too (Used is the account's, and so may be Remaining). Read
   * again, once: the entry is then the newest until the account moves on.
   */
  private accountMovedSince(who: string | UsageSubject, seq: number): boolean {
    if (typeof who === 'string' || who.keyId === undefined) return false;
    const account = this.entries.get(who.accountId, { use: false });
    return account !== undefined && account.seq > seq;
  }

  private get(
    who: string | UsageSubject,
    maxAgeMs: number,
    fetch: () => Promise<UsageSnapshot>,
  ): Promise<UsageSnapshot> {
    const name = usageKey(who);
    const now = this.now();
    const hit = this.entries.get(name, { use: false });
    if (
      hit &&
      now - hit.at < maxAgeMs &&
      now < hit.snapshot.periodEnd.getTime() &&
      !this.accountMovedSince(who, hit.seq)
    ) {
      return Promise.resolve(hit.snapshot);
    }
    const pending = this.inflight.get(name);
    if (pending) return pending;
    const fetched = fetch().then((snapshot) => {
      this.remember(who, snapshot);
      return snapshot;
    });
    // The caller who fetched gets what it fetched; those who join it get the entry's view of it
    // (another key of the account must not see this caller's key's figures).
    const shared = fetched.then((snapshot) => viewFor(who, snapshot));
    this.inflight.set(name, shared);
    // A failure is not remembered: the next caller asks again.
    shared.finally(() => this.inflight.delete(name)).catch(() => undefined);
    return fetched;
  }
}

/** What an entry named `who` may hold of a snapshot: a bare account id, the account's figures. */
function viewFor(who: string | UsageSubject, snapshot: UsageSnapshot): UsageSnapshot {
  return typeof who === 'string' || who.keyId === undefined ? accountView(snapshot) : snapshot;
}
