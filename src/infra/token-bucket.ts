/**
 * A per-process token bucket: `perSecond` tokens a second, at most `burst` saved up. Used where a
 * cost must stay bounded per process whatever the rate of requests (contract §14.5, §19.9).
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Takes one token when there is one. */
  take(): boolean {
    const now = this.now();
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.at = now;
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.perSecond);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
