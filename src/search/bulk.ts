import type { Client } from '@opensearch-project/opensearch';

// Bulk work for the operator's commands: a million-record seed must survive a
// busy cluster. Whole requests that fail for reasons that are not ours (429, 502-504, timeouts,
// dropped connections) are retried with exponential backoff; inside a successful bulk response,
// only the documents refused with 429 (a full write queue) are sent again.

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Told before each wait, so the CLI can say why it is pausing. */
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

export const BULK_RETRY: RetryPolicy = { attempts: 10, baseDelayMs: 500, maxDelayMs: 30_000 };

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const RETRYABLE_NAMES = new Set(['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError']);

export function isRetryable(err: unknown): boolean {
  const e = err as { name?: string; meta?: { statusCode?: number } };
  return RETRYABLE_NAMES.has(e.name ?? '') || RETRYABLE_STATUS.has(e.meta?.statusCode ?? 0);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function backoff(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Full jitter keeps several writers from retrying in step.
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Runs `fn`, retrying retryable failures up to `policy.attempts` times in all. */
export async function withRetries<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = BULK_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= policy.attempts || !isRetryable(err)) throw err;
      const delay = backoff(policy, attempt);
      policy.onRetry?.(attempt, delay, describe(err));
      await (policy.sleep ?? defaultSleep)(delay);
    }
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; meta?: { statusCode?: number } };
  return e.meta?.statusCode ? `HTTP ${e.meta.statusCode}` : `${e.name ?? 'Error'}: ${e.message}`;
}

/** One bulk operation: its action line and, for index, its document. */
export interface BulkOperation {
  action: Record<string, { _index: string; _id: string }>;
  document?: unknown;
}

interface BulkItemResult {
  status?: number;
  result?: string;
  error?: unknown;
}

/**
 * The most one bulk request carries. The engine refuses a request over its
 * `http.max_content_length` (100 MB by default) whole, with a 413 that no retry can fix: 2,000
 * records of a sync batch at their bounds (contract §2.7), their text escaped to ASCII, came to
 * 112 MB, and the sync stopped there for good. A document larger than this goes alone.
 */
export const MAX_BULK_BYTES = 8 * 1024 * 1024;

/** One operation as the lines of a bulk body, serialized once however often it is sent. */
const linesOf = (op: BulkOperation): string =>
  op.document === undefined
    ? `${JSON.stringify(op.action)}\n`
    : `${JSON.stringify(op.action)}\n${JSON.stringify(op.document)}\n`;

/** The operations in order, cut into runs whose bodies stay within maxBytes (each run one at least). */
function runsOf(lines: string[], maxBytes: number): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  let bytes = 0;
  lines.forEach((text, i) => {
    const size = Buffer.byteLength(text);
    if (run.length > 0 && bytes + size > maxBytes) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(i);
    bytes += size;
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Sends the operations, in requests of at most `maxBytes` each, in order; resends those refused
 * with 429 until none are left or the attempts run out. Any other item failure (a mapping error,
 * say) is thrown: retrying cannot fix it. A delete of a document that is not there is not a
 * failure.
 */
export async function bulkWithRetry(
  search: Pick<Client, 'bulk'>,
  operations: BulkOperation[],
  policy: RetryPolicy = BULK_RETRY,
  maxBytes: number = MAX_BULK_BYTES,
): Promise<void> {
  const lines = operations.map(linesOf);
  for (const run of runsOf(lines, maxBytes)) await sendRun(search, lines, run, policy);
}

/** One request's operations (by index into `lines`), with their 429s sent again. */
async function sendRun(
  search: Pick<Client, 'bulk'>,
  lines: string[],
  run: number[],
  policy: RetryPolicy,
): Promise<void> {
  let pending = run;
  for (let attempt = 1; pending.length; attempt++) {
    const body = pending.map((i) => lines[i]).join('');
    const res = await withRetries(() => search.bulk({ body: body as never }), policy);
    if (!res.body.errors) return;
    const items = res.body.items.map((item) => Object.values(item)[0] as BulkItemResult);
    const refused: number[] = [];
    const failures: BulkItemResult[] = [];
    items.forEach((r, i) => {
      if (!r?.error || (r.status === 404 && r.result === 'not_found')) return;
      const op = pending[i];
      if (r.status === 429 && op !== undefined) refused.push(op);
      else failures.push(r);
    });
    if (failures.length) {
      throw new Error(
        `bulk indexing failed for ${failures.length} documents: ${JSON.stringify(failures[0]?.error)}`,
      );
    }
    if (refused.length && attempt >= policy.attempts) {
      throw new Error(`bulk indexing: ${refused.length} documents still refused with 429`);
    }
    if (refused.length) {
      const delay = backoff(policy, attempt);
      policy.onRetry?.(attempt, delay, `${refused.length} documents refused with 429`);
      await (policy.sleep ?? defaultSleep)(delay);
    }
    pending = refused;
  }
}
