// contract §6.9: rate_min=X matches a rate whose upper bound is >= X, and rate_max=Y one whose
// lower bound is <= Y, X and Y as written. A stored rate is a double read from the record's JSON,
// so the decimal it stands for is the shortest one that reads back as that double (what the API
// prints). Number(text) rounds a filter of more digits than a double holds to the nearest double:
// rate_min=755.0000000000000001 became 755 and matched a rate of exactly 755. Shortest decimals
// order as their doubles do, and the filter lies within half a step of the double it rounds to, so
// the comparison stays exact with that double or, past it on the wrong side, its neighbour: the
// next one up for "at least" when the text is above the double's decimal, the next one down for
// "at most" when it is below.

import { validationError } from '../errors';

/**
 * The most digits a decimal filter may have before its point, on REST and in tool arguments alike
 * (OpenAPI's pattern says the same): 309 can name a number past the largest double, and 309 ones
 * (1.1e308, a double) was served on REST where the schema refused it.
 */
export const MAX_WHOLE_DIGITS = 308;

/** A decimal filter's text as the number it filters by (contract §6.9). */
export function decimalValue(name: string, text: string, bound?: DecimalBound): number {
  const whole = text.includes('.') ? text.indexOf('.') : text.length;
  if (whole > MAX_WHOLE_DIGITS) {
    throw validationError(
      name,
      'out_of_range',
      `${name} may have at most ${MAX_WHOLE_DIGITS} digits before the decimal point.`,
    );
  }
  return bound ? boundOf(text, bound) : Number(text);
}

/** How a decimal filter bounds the stored value. */
export type DecimalBound = 'at_least' | 'at_most';

/** The double that selects, among stored doubles, exactly those whose decimal is `bound` `text`. */
export function boundOf(text: string, bound: DecimalBound): number {
  const rounded = Number(text);
  if (!Number.isFinite(rounded)) return rounded;
  const sign = compareDecimals(decimalOf(text), decimalOf(String(rounded)));
  if (bound === 'at_least' && sign > 0) return adjacent(rounded, 1);
  if (bound === 'at_most' && sign < 0) return adjacent(rounded, -1);
  return rounded;
}

/** A non-negative decimal as its digits: the whole part without leading zeros, the fraction
 * without trailing ones (`007.50` → `7`, `5`). */
interface Decimal {
  whole: string;
  fraction: string;
}

/**
 * Reads `123.45`, or a number as String() prints it (`1e-7`, `1.5e+21`). Strings, not BigInt: a
 * filter may be a megabyte of digits (an MCP argument), and BigInt arithmetic on it held the event
 * loop about 90 ms; this is linear in the text.
 */
function decimalOf(text: string): Decimal {
  const [significand = '0', power = '0'] = text.toLowerCase().split('e');
  const [whole = '', fraction = ''] = significand.split('.');
  const shift = Number(power);
  const digits = whole + fraction;
  // Where the point stands in `digits` once the exponent moved it.
  const point = whole.length + shift;
  const padded =
    point < 0 ? '0'.repeat(-point) + digits : digits.padEnd(Math.max(point, digits.length), '0');
  const at = Math.max(point, 0);
  return {
    whole: trimZeros(padded.slice(0, at), 'start'),
    fraction: trimZeros(padded.slice(at), 'end'),
  };
}

/**
 * Leading or trailing zeros off, in one pass: the regular expression `/0+$/` backtracks on every
 * zero of a long run that is not at the end (a megabyte of them: minutes).
 */
function trimZeros(digits: string, side: 'start' | 'end'): string {
  if (side === 'start') {
    let from = 0;
    while (from < digits.length && digits.charCodeAt(from) === 48) from++;
    return digits.slice(from);
  }
  let to = digits.length;
  while (to > 0 && digits.charCodeAt(to - 1) === 48) to--;
  return digits.slice(0, to);
}

function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  // More whole digits is larger; then digit by digit (a fraction that is a prefix is smaller).
  if (a.whole.length !== b.whole.length) return a.whole.length > b.whole.length ? 1 : -1;
  if (a.whole !== b.whole) return a.whole > b.whole ? 1 : -1;
  if (a.fraction === b.fraction) return 0;
  return a.fraction > b.fraction ? 1 : -1;
}

/** The neighbouring double of a finite positive `value`, one step up (1) or down (-1). */
function adjacent(value: number, step: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(step));
  return view.getFloat64(0);
}
