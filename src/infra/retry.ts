/**
 * Retries `fn` until it succeeds or `deadlineMs` has passed (the first index creation on
 * a just-started, cold OpenSearch on busy cores can exceed the per-request timeout; creating the
 * index again is safe). The last error is thrown once the deadline is over.
 */
export async function retryUntil<T>(
  fn: () => Promise<T>,
  deadlineMs: number,
  onRetry: (err: unknown) => void = () => undefined,
  pauseMs = 1000,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() + pauseMs >= deadline) throw err;
      onRetry(err);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  }
}
