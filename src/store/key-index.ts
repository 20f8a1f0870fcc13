import { Client, type ClientConfig, type Notification } from 'pg';
import type { Logger } from '../infra/logger';
import { outsideRequests } from '../infra/request-context';

// contract §14.5: unknown keys never reach Postgres at the caller's pace. Each API process holds the
// set of key hashes that exist, loaded once and kept current by the notification of
// migrations/007_api_key_notify.sql, so a well-shaped but unknown key is answered from memory.
//
// Why a set of valid hashes rather than a negative cache or a lookup budget alone: random keys
// never repeat, so a negative cache never hits; and a budget alone cannot tell a new valid key from
// an attacker's, so under attack it would refuse valid keys. The set tells them apart exactly.
//
// Keys are never deleted, so the set only grows. It holds the first 16 hex digits (64 bits) of
// each hash: a collision only costs one (cached) lookup, never a wrong answer, and it halves the
// memory (about 60 bytes a key).

export const KEY_CHANNEL = 'api_key_created';
const ENTRY_LENGTH = 16;

export interface KeyIndex {
  /**
   * true: a key with this hash may exist (look it up); false: none existed as of the last
   * notification; undefined: not in the set, and the set is not current (not loaded yet, or its
   * connection is lost), so nothing can be said. `waitMs`: when the hash is not in the set, wait
   * up to this long for it to arrive by notification (a key committed a moment ago whose
   * notification is still on its way).
   */
  mayExist(keyHash: string, waitMs?: number): Promise<boolean | undefined>;
  close(): Promise<void>;
}

export interface PgKeyIndexOptions {
  /** Bound on connecting and on the load query. */
  timeoutMs: number;
  /** Wait before reconnecting after the listening connection is lost. */
  retryMs?: number;
}

/**
 * The set over one dedicated connection that LISTENs (not a pool client: it is held for the life
 * of the process). Started on first use, so the CLI, which never authenticates, never opens it.
 * A lost connection makes the set not current until a new one has listened and reloaded.
 */
export class PgKeyIndex implements KeyIndex {
  private readonly hashes = new Set<string>();
  private current = false;
  private closed = false;
  private client: Client | null = null;
  private firstLoad: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  /** Callers waiting for the next notification (mayExist with waitMs). */
  private readonly waiters = new Set<() => void>();

  constructor(
    /** The pool's own connection settings (store/pg-tls.ts: URL, TLS), so it reaches the same server. */
    private readonly connection: ClientConfig,
    private readonly logger: Logger,
    private readonly options: PgKeyIndexOptions,
  ) {}

  async mayExist(keyHash: string, waitMs = 0): Promise<boolean | undefined> {
    if (this.closed) return undefined;
    // Opened by the first request that asks, but not its: the connection's events are nobody's.
    this.firstLoad ??= outsideRequests(() => this.connect());
    await this.firstLoad;
    const entry = keyHash.slice(0, ENTRY_LENGTH);
    const deadline = Date.now() + waitMs;
    // Keys are never deleted: a hash in the set stays true even while the set is not current.
    while (!this.hashes.has(entry) && this.current && Date.now() < deadline) {
      await this.nextNotification(deadline - Date.now());
    }
    if (this.hashes.has(entry)) return true;
    return this.current ? false : undefined;
  }

  /** Resolves at the next notification, or after `ms`. */
  private nextNotification(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.waiters.add(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current = false;
    for (const wake of [...this.waiters]) wake();
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** Listens, then loads: a key created during the load arrives by notification either way. */
  private async connect(): Promise<void> {
    const client = new Client({
      ...this.connection,
      keepAlive: true,
      connectionTimeoutMillis: this.options.timeoutMs,
      query_timeout: this.options.timeoutMs,
    });
    this.client = client;
    client.on('notification', (message: Notification) => {
      if (message.channel === KEY_CHANNEL && message.payload) {
        this.hashes.add(message.payload.slice(0, ENTRY_LENGTH));
        for (const wake of [...this.waiters]) wake();
      }
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANNEL}`);
      const { rows } = await client.query<{ h: string }>(
        `SELECT left(key_hash, ${ENTRY_LENGTH}) AS h FROM api_keys`,
      );
      for (const row of rows) this.hashes.add(row.h);
      if (this.client === client) this.current = true;
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: Client, err?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    this.current = false;
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.logger.warn('api key index connection lost; reconnecting', {
      error: err instanceof Error ? err.message : undefined,
    });
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) void this.connect();
    }, this.options.retryMs ?? 1000);
    this.retry.unref();
  }
}
