import { escapeLiteral, type QueryResult } from 'pg';

// Several statements in ONE round trip (Postgres round trips per request are the meter's main
// latency) need the simple query protocol, which takes no parameters: the values are written into
// the text as literals. This file is the meter's ONE way to write a literal, and the one place that
// knows how a batch's results line up with its statements: callers name their statements and get
// each result back by the same name, never by position.

export type InlineValue = string | number | Date | null | readonly string[];

/** A statement with `$n` placeholders and their values. */
export interface Statement {
  readonly text: string;
  readonly values?: readonly InlineValue[];
}

export function statement(text: string, values: readonly InlineValue[] = []): Statement {
  return { text, values };
}

/** The literal of one value: quoted by the driver's escapeLiteral, never pasted raw. */
export function literal(value: InlineValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`literal: not an integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return escapeLiteral(value);
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  // A text array literal: every element double-quoted with its quotes and backslashes escaped,
  // then the whole literal quoted like any string.
  const elements = value.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return escapeLiteral(`{${elements.join(',')}}`);
}

/**
 * `sql` with each `$n` replaced by the literal of `values[n - 1]`. The statements passed here hold
 * no `$` of their own (no dollar quoting, no `$` in string literals); a `$n` without a value throws.
 */
export function inlineParams(sql: string, values: readonly InlineValue[]): string {
  return sql.replace(/\$(\d+)/g, (_match, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= values.length) throw new Error(`inlineParams: no value for $${n}`);
    return literal(values[index] as InlineValue);
  });
}

/** What a batch sets for its transaction (SET LOCAL: gone at its end). */
export interface BatchSettings {
  /** lock_timeout and statement_timeout, in ms: past them the statement fails (→ 503). */
  timeoutMs?: number;
  /**
   * synchronous_commit = off: the commit does not wait for its WAL to reach the disk. For a batch
   * that records nothing of value (a spent request id), or whose caller makes the WAL durable
   * itself before it answers (PgMeter's charge, see DURABLE in ledger-sql.ts).
   */
  asynchronousCommit?: boolean;
}

export interface BatchOptions {
  /** Starts an explicit transaction; otherwise the batch is one implicit one. */
  begin?: boolean;
  /** Ends the explicit transaction with COMMIT in the same round trip (its result is not named). */
  commit?: boolean;
  settings?: BatchSettings;
}

/** Anything with node-postgres's query(text): a Pool or a checked-out client. */
export interface Queryable {
  query(text: string): Promise<unknown>;
}

/** The batch's text: BEGIN, the settings, then the statements in the order they were named. */
export function batchText(
  statements: Record<string, Statement>,
  options: BatchOptions = {},
): string {
  const end = options.commit ? ['COMMIT'] : [];
  return [...preamble(options), ...Object.values(statements).map(inline), ...end].join(';\n');
}

/**
 * Runs the named statements in one round trip and returns each one's result by its name. Without
 * `begin` a multi-statement query is one implicit transaction: an error anywhere rolls all of it
 * back, and SET LOCAL applies to it.
 */
export async function runBatch<K extends string>(
  db: Queryable,
  statements: Record<K, Statement>,
  options: BatchOptions = {},
): Promise<Record<K, QueryResult>> {
  const names = Object.keys(statements) as K[];
  const skip = preamble(options).length;
  const raw = await db.query(batchText(statements, options));
  // node-postgres answers one statement with a result, several with an array of them.
  const results = (Array.isArray(raw) ? raw : [raw]) as QueryResult[];
  const expected = skip + names.length + (options.commit ? 1 : 0);
  if (results.length !== expected) {
    throw new Error(`runBatch: ${results.length} results for ${expected} statements`);
  }
  const named = {} as Record<K, QueryResult>;
  names.forEach((name, i) => {
    named[name] = results[skip + i] as QueryResult;
  });
  return named;
}

function preamble(options: BatchOptions): string[] {
  const lines = options.begin ? ['BEGIN'] : [];
  const { timeoutMs, asynchronousCommit } = options.settings ?? {};
  if (timeoutMs !== undefined) {
    const ms = literal(Math.max(1, Math.floor(timeoutMs)));
    lines.push(`SET LOCAL lock_timeout = ${ms}`, `SET LOCAL statement_timeout = ${ms}`);
  }
  if (asynchronousCommit) lines.push('SET LOCAL synchronous_commit = off');
  return lines;
}

function inline(s: Statement): string {
  return inlineParams(s.text, s.values ?? []);
}
