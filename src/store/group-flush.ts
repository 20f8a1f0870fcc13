/**
 * Makes asynchronously committed transactions durable in groups. A caller whose COMMIT has been
 * acknowledged asks `after()`; it resolves once a flush that STARTED after that call has finished.
 * A flush writes its own WAL record and waits for the log to reach the disk up to it, so it covers
 * every commit record written before it began, whichever connection wrote it.
 *
 * Why: one busy account sends many small charges at once. With a flush of its own per charge,
 * each paid a round trip and a WAL record of its own (Postgres shares the disk write, not the
 * statement). Here at most one flush runs at a time; callers that arrive while it runs wait for
 * the next one, which starts when it ends and serves all of them: under load a flush covers as
 * many commits as arrived during the one before it.
 *
 * A caller that joins while a flush is running never shares that flush: it may have begun before
 * the caller's commit record was written. The wait is at most two flushes.
 */
export class GroupFlush {
  private running = false;
  private waiting: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  /** Flushes run so far (the group size is callers / flushes). */
  flushes = 0;

  constructor(private readonly flush: () => Promise<void>) {}

  after(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.running) this.start();
    });
  }

  private start(): void {
    const group = this.waiting;
    this.waiting = [];
    this.running = true;
    this.flushes += 1;
    // A flush that throws synchronously fails its group like one that rejects.
    void Promise.resolve()
      .then(this.flush)
      .then(
        () => group.forEach((w) => w.resolve()),
        (err: unknown) => group.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.running = false;
        if (this.waiting.length > 0) this.start();
      });
  }
}
