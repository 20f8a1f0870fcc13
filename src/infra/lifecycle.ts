/**
 * The process's place in its life (contract §22.6): once draining, /readyz answers 503 so a load
 * balancer stops sending traffic while in-flight requests finish.
 */
export class Lifecycle {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /** Returns false when draining had already begun (a second signal changes nothing). */
  beginDrain(): boolean {
    if (this.drainingSince !== null) return false;
    this.drainingSince = Date.now();
    return true;
  }
}
