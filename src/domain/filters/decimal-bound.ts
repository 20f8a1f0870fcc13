// contract §6.9: rate_min=X matches a rate whose upper bound is >= X, and rate_max=Y one whose
// lower bound is <= Y, X and Y as written. A stored rate is a double read from the record's JSON,
// so the decimal it stands for is the shortest one that reads back as that double (what the API
// prints). Number(text) rounds a filter of more digits than a double holds to the nearest double:
// rate_min=755.0000000000000001 became 755 and matched a rate of exactly 755. Shortest decimals
// order as their doubles do, and the filter lies within half a step of the double it rounds to, so
// the comparison stays exact with that double or, past it on the wrong side, its neighbour: the
// next one up for "at least" when the text is above the double's decimal, the next one down for
// "at most" when it is below.

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

/** A non-negative decimal as digits * 10^-scale. */
interface Decimal {
  digits: bigint;
  scale: number;
}

/** Reads `123.45`, or a number as String() prints it (`1e-7`, `1.5e+21`). */
function decimalOf(text: string): Decimal {
  const [significand = '0', power = '0'] = text.toLowerCase().split('e');
  const [whole = '0', fraction = ''] = significand.split('.');
  return { digits: BigInt(whole + fraction), scale: fraction.length - Number(power) };
}

function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const left = a.digits * 10n ** BigInt(scale - a.scale);
  const right = b.digits * 10n ** BigInt(scale - b.scale);
  return left === right ? 0 : left > right ? 1 : -1;
}

/** The neighbouring double of a finite positive `value`, one step up (1) or down (-1). */
function adjacent(value: number, step: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(step));
  return view.getFloat64(0);
}
