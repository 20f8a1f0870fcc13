import fc from 'fast-check';
import { boundOf } from '../../src/domain/filters/decimal-bound';

// contract §6.9: a rate filter compares the stored rate (a double, which stands for the shortest
// decimal that reads back as it) with the filter's decimal as written.

describe('boundOf', () => {
  it.each([
    ['755', 'at_least', 755],
    ['80.50', 'at_least', 80.5],
    ['0.1', 'at_most', 0.1],
    ['0', 'at_most', 0],
    // Rounded down by Number(): "at least" starts at the next double.
    ['755.0000000000000001', 'at_least', 755.0000000000001],
    ['755.0000000000000001', 'at_most', 755],
    // Rounded up by Number(): "at most" ends at the double before.
    ['689.9999999999999999', 'at_most', 689.9999999999999],
    ['689.9999999999999999', 'at_least', 690],
    ['9007199254740993', 'at_least', 9007199254740994],
    ['9007199254740993', 'at_most', 9007199254740992],
  ] as const)('%s, %s → %d', (text, bound, want) => {
    expect(boundOf(text, bound)).toBe(want);
  });

  // An MCP argument may be a megabyte of digits. BigInt arithmetic on it held the event loop about
  // 90 ms a call, and trimming a run of zeros with /0+$/ backtracked for minutes: both are gone
  // (string comparison, zeros trimmed in one pass). A quadratic return shows as a run of minutes.
  it('reads long runs of digits, zeros not at the end included', () => {
    const zeros = '0'.repeat(200_000);
    expect(boundOf(`755.${zeros}1`, 'at_least')).toBe(755.0000000000001);
    expect(boundOf(`755.${zeros}1`, 'at_most')).toBe(755);
    expect(boundOf(`${zeros}1.5`, 'at_least')).toBe(1.5);
    expect(boundOf(`0.${'9'.repeat(200_000)}`, 'at_most')).toBe(0.9999999999999999);
  });

  it('a decimal too large for a double stays Infinity (refused later as out of range)', () => {
    expect(boundOf('9'.repeat(400), 'at_least')).toBe(Infinity);
  });

  // The property the filter relies on: over stored doubles, `stored >= boundOf(text)` holds exactly
  // when the stored rate's decimal is >= the text (and the mirror for at_most).
  it('selects exactly the doubles whose decimal is at least / at most the text', () => {
    const decimalText = fc
      .tuple(fc.integer({ min: 0, max: 100_000 }), fc.stringMatching(/^\d{0,22}$/))
      .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : String(whole)));
    fc.assert(
      fc.property(decimalText, fc.integer({ min: -3, max: 3 }), (text, offset) => {
        // Stored rates near the text: the doubles a few steps around Number(text).
        const stored = step(Number(text), offset);
        const exact = compareDecimal(String(stored), text);
        expect(stored >= boundOf(text, 'at_least')).toBe(exact >= 0);
        expect(stored <= boundOf(text, 'at_most')).toBe(exact <= 0);
      }),
      { numRuns: 2000 },
    );
  });
});

function step(value: number, steps: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const moved = view.getBigInt64(0) + BigInt(steps);
  if (moved < 0n) return 0;
  view.setBigInt64(0, moved);
  return view.getFloat64(0);
}

/** Plain decimals, or String()'s exponent form of small ones, compared exactly with BigInt. */
function compareDecimal(a: string, b: string): number {
  const read = (t: string) => {
    const [significand = '0', power = '0'] = t.split('e');
    const [whole = '0', fraction = ''] = significand.split('.');
    return { digits: BigInt(whole + fraction), scale: fraction.length - Number(power) };
  };
  const x = read(a);
  const y = read(b);
  const scale = Math.max(x.scale, y.scale);
  const left = x.digits * 10n ** BigInt(scale - x.scale);
  const right = y.digits * 10n ** BigInt(scale - y.scale);
  return left === right ? 0 : left > right ? 1 : -1;
}
