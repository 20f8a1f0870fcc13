import { escapeLiteral } from 'pg';

// Several statements in ONE round trip (issue 13: Postgres round trips per request) need the simple
// query protocol, which takes no parameters: the values are written into the text as literals,
// quoted by the driver's escapeLiteral, never pasted raw. Only the value types the meter uses are
// accepted; anything else throws rather than guess at a quoting.

export type InlineValue = string | number | Date | null | readonly string[];

function literal(value: InlineValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`inlineParams: not an integer: ${value}`);
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
