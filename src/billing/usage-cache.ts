import type { UsageSnapshot } from './snapshot';
import { Lru } from '../infra/lru';

/**
 * The last usage snapshot this process saw per account, for responses that must carry the usage
 * headers of contract §18 but should not cost the database anything: 429s (contract §17.2.2: "a flood
 * of refused calls costs the database nothing") and MCP protocol messages (initialize, tools/list).
 * Every delivery and every fresh snapshot (counts, errors of admitted calls) refreshes it.
 * - `latest`: for refusals. Any snapshot of the current period will do: a refused account is one
 *   that is flooding, and its admitted calls (one window's worth a second) keep the entry fresh.
 * - `fresh`: for protocol messages, which are admitted: at most `maxAgeMs` old.
 * Past either, one query per account refreshes the entry, shared by every concurrent caller.
 * Responses that deliver or count always read the ledger itself.
 */
export class UsageCache {
  private readonly entries: Lru<string, { at: number; snapshot: UsageSnapshot }>;
  private readonly inflight = new Map<string, Promise<UsageSnapshot>>();

  constructor(
    private readonly maxAgeMs = 10_000,
    maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new Lru(maxEntries);
  }

  remember(accountId: string, snapshot: UsageSnapshot): void {
    // The least recently refreshed go first past the bound: reads do not reorder (see get).
    this.entries.set(accountId, { at: this.now(), snapshot });
  }

  /** A snapshot of the current period, whatever its age, else one shared `fetch`. */
  latest(accountId: string, fetch: () => Promise<UsageSnapshot>): Promise<UsageSnapshot> {
    return this.get(accountId, Number.POSITIVE_INFINITY, fetch);
  }

  /** A snapshot at most `maxAgeMs` old, else one shared `fetch`. */
  fresh(accountId: string, fetch: () => Promise<UsageSnapshot>): Promise<UsageSnapshot> {
    return this.get(accountId, this.maxAgeMs, fetch);
  }

  private get(
    accountId: string,
    maxAgeMs: number,
    fetch: () => Promise<UsageSnapshot>,
  ): Promise<UsageSnapshot> {
    const now = this.now();
    const hit = this.entries.get(accountId, { use: false });
    if (hit && now - hit.at < maxAgeMs && now < hit.snapshot.periodEnd.getTime()) {
      return Promise.resolve(hit.snapshot);
    }
    const pending = this.inflight.get(accountId);
    if (pending) return pending;
    const started = fetch().then((snapshot) => {
      this.remember(accountId, snapshot);
      return snapshot;
    });
    this.inflight.set(accountId, started);
    // A failure is not remembered: the next caller asks again.
    started.finally(() => this.inflight.delete(accountId)).catch(() => undefined);
    return started;
  }
}
