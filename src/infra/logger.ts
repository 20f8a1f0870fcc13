import pino from 'pino';
import { redact, redactString } from './redact';
import { currentRequestId } from './request-context';

// Structured logs through pino: one JSON object a line on stderr (stdout stays for the CLI's one
// JSON result). Every line written while serving a request carries its request_id (from the
// request context), and every field and message is scrubbed of secrets (redact.ts) first.

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * `fields` go on every line: with several API processes on one port (app/processes.ts), which
 * process wrote it (`worker`, `pid`); a single process's lines stay as they were.
 */
export function createLogger(
  level: Level | 'silent' = 'info',
  write: (line: string) => void = batchedStderr(),
  fields?: Record<string, string | number>,
): Logger {
  const base = pino(
    {
      level,
      base: fields,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Fields passed explicitly win over the context's (mixin merges first).
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { request_id: requestId };
      },
    },
    { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) },
  );
  const emit = (l: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (!base.isLevelEnabled(l)) return;
    base[l]((fields ? redact(fields) : {}) as object, redactString(msg));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** Linux's PIPE_BUF: a write to a pipe of at most this many bytes is never split by another's. */
export const ATOMIC_WRITE_BYTES = 4096;

/**
 * stderr, one write for all the lines of an event-loop turn (logging cost). Under load
 * many requests finish in one turn; a write(2) for each line cost more CPU than the rest of the
 * request's logging. Lines keep their order; what is pending when the process exits (a crash, the
 * end of a graceful shutdown) is written by the exit handler, so only a hard kill can lose the
 * lines of the last turn.
 *
 * `atomic`: several processes write to one stderr (API_PROCESSES > 1). A pipe keeps a write whole
 * only up to ATOMIC_WRITE_BYTES: a longer one can be cut by another process's write in mid-line.
 * So the turn's lines go in writes of at most that many bytes, each cut at a line's end (a single
 * longer line is written alone).
 */
export function batchedStderr(
  out: { write(text: string): unknown } = process.stderr,
  options: { atomic?: boolean } = {},
): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    if (!options.atomic) {
      out.write(lines.join('\n') + '\n');
      return;
    }
    let chunk = '';
    let bytes = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line) + 1;
      if (bytes > 0 && bytes + size > ATOMIC_WRITE_BYTES) {
        out.write(chunk);
        chunk = '';
        bytes = 0;
      }
      chunk += line + '\n';
      bytes += size;
    }
    out.write(chunk);
  };
  process.on('exit', flush);
  return (line) => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
}
