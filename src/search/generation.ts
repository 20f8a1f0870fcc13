import type { Pool, PoolClient } from 'pg';

// The index generation: a value that changes whenever what an alias serves may have changed.
// Search results cached under one generation are never served under another, so a
// cache cannot outlive a sync, import, delete or reindex:
// - in the process that changed the index, the bump is synchronous (`indexChanged` returns only
//   after it), so a request that follows the sync in that process sees the new generation;
// - every other process and instance hears it through Postgres LISTEN/NOTIFY, sent after the
//   index refresh that made the change visible. A process that is not listening (not yet
//   connected, connection lost) has no generation, and then nothing is cached or served from the
//   cache; a reconnect starts a new generation, since changes may have been missed meanwhile.

const CHANNEL = 'search_index_changed';
const RETRY_MS = 1000;

/** Bumps made by this process, per alias. */
const localBumps = new Map<string, number>();

/**
 * Called by every writer of the index after the refresh that made its change searchable; returns
 * once this process's caches are invalidated and the other processes have been told.
 */
export async function indexChanged(pool: Pool, alias: string): Promise<void> {
  localBumps.set(alias, (localBumps.get(alias) ?? 0) + 1);
  await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, alias]);
}

/** Listens for index changes of one alias; one per process that serves searches. */
export class IndexGeneration {
  private client: PoolClient | null = null;
  private connecting: Promise<void> | null = null;
  private remote = 0;
  private retryAt = 0;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly alias: string,
  ) {}

  /** The current generation, or null when it cannot be known (then nothing may be cached). */
  current(): string | null {
    if (!this.client) {
      this.connect();
      return null;
    }
    return `${localBumps.get(this.alias) ?? 0}.${this.remote}`;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
      client.release();
    }
  }

  private connect(): void {
    if (this.connecting || this.closed || Date.now() < this.retryAt) return;
    this.connecting = (async () => {
      let client: PoolClient | null = null;
      try {
        client = await this.pool.connect();
        const lost = (err?: Error) => this.lost(client as PoolClient, err);
        client.on('notification', (msg) => {
          if (msg.channel === CHANNEL && msg.payload === this.alias) this.remote++;
        });
        client.on('error', lost);
        client.on('end', () => lost());
        await client.query(`LISTEN ${CHANNEL}`);
        if (this.closed) {
          client.release();
          return;
        }
        // Whatever happened while nobody listened is covered by starting a new generation.
        this.remote++;
        this.client = client;
      } catch (err) {
        client?.release(err instanceof Error ? err : true);
        this.retryAt = Date.now() + RETRY_MS;
      }
    })().finally(() => {
      this.connecting = null;
    });
  }

  private lost(client: PoolClient, err?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.remote++;
    this.retryAt = Date.now() + RETRY_MS;
    client.release(err ?? true);
  }
}
