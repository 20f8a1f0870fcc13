import type { Logger } from '../infra/logger';
import { followStore, type FollowResult, type SyncDeps } from './sync';

// contract §22.8: the index follows the store by itself. Every API process runs a follower: every
// SYNC_INTERVAL_MS it tries the sync lock (search/sync.ts followStore) and, when it gets it and
// the store is ahead of the watermark, indexes what changed, deletions included. A crash between
// a store write and its sync, or an `import --no-sync`, thus heals without an operator. Processes
// that find the lock taken skip the pass: one of them (or a running sync) does the work.

export class IndexFollower {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly abort = new AbortController();
  /** The last pass indexed but could not refresh: the next one refreshes even if nothing changed. */
  private refreshPending = false;
  private failing = false;

  /** `intervalMs` 0 disables the follower (start() does nothing). */
  constructor(
    private readonly deps: SyncDeps,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): this {
    if (this.intervalMs > 0 && !this.abort.signal.aborted) this.schedule();
    return this;
  }

  /** One pass now; never throws (a failure is logged once, and retried at the next interval). */
  async pass(): Promise<FollowResult | null> {
    try {
      const outcome = await followStore(
        { ...this.deps, signal: this.abort.signal },
        this.refreshPending,
      );
      if (this.failing) this.logger.info('index follower: syncing again');
      this.failing = false;
      if (outcome.ran) {
        const { indexed, deleted, watermark, refreshed, stopped } = outcome.result;
        this.refreshPending = refreshed === false;
        this.logger.info('index follower: synced', {
          indexed,
          deleted,
          watermark,
          refreshed,
          stopped,
        });
      }
      return outcome;
    } catch (err) {
      // Logged when it starts failing, not every interval of an outage.
      if (!this.failing) {
        this.logger.warn('index follower: sync failed; retrying every interval', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
      this.failing = true;
      return null;
    }
  }

  /** Stops the timer and waits for a pass in progress, which stops after its current batch. */
  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        if (!this.abort.signal.aborted) this.schedule();
      });
    }, this.intervalMs);
    // The follower alone never keeps a process alive.
    this.timer.unref();
  }
}
