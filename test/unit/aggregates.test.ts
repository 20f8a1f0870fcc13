import {
  bucketSpan,
  bucketStart,
  exactPercentile,
  fillHistogram,
  nextBucketStart,
  rateMidpoint,
} from '../../src/domain/aggregates';
import { ApiError } from '../../src/domain/errors';
import { bucketLimitError } from '../../src/search/dashboard-aggs';

// contract §10.4, §10.5's pure rules: UTC buckets (weeks from Monday), gaps, the 400 bound, the midpoint
// and the exact percentile (R-7, PostgreSQL's percentile_cont).

const ms = (iso: string) => Date.parse(iso);
const iso = (n: number) => new Date(n).toISOString();

it.each([
  ['2026-03-01T23:59:59.999Z', 'day', '2026-03-01T00:00:00.000Z'],
  ['2026-03-01T23:59:59.999Z', 'week', '2026-02-23T00:00:00.000Z'], // a Sunday
  ['2026-03-02T00:00:00.000Z', 'week', '2026-03-02T00:00:00.000Z'], // a Monday
  ['2026-01-01T10:00:00.000Z', 'week', '2025-12-29T00:00:00.000Z'],
  ['2026-02-28T23:59:59.999Z', 'month', '2026-02-01T00:00:00.000Z'],
  ['2024-02-29T12:00:00.000Z', 'month', '2024-02-01T00:00:00.000Z'],
] as const)('bucketStart(%s, %s) = %s', (at, interval, start) => {
  expect(iso(bucketStart(ms(at), interval))).toBe(start);
});

it('steps and spans across month lengths and years', () => {
  expect(iso(nextBucketStart(ms('2026-01-01T00:00:00Z'), 'month'))).toBe(
    '2026-02-01T00:00:00.000Z',
  );
  expect(iso(nextBucketStart(ms('2026-12-01T00:00:00Z'), 'month'))).toBe(
    '2027-01-01T00:00:00.000Z',
  );
  expect(bucketSpan(ms('2025-11-30T00:00:00Z'), ms('2026-02-01T00:00:00Z'), 'month')).toBe(4);
  expect(bucketSpan(ms('2025-12-29T00:00:00Z'), ms('2026-01-04T23:00:00Z'), 'week')).toBe(1);
  expect(bucketSpan(ms('2026-01-01T00:00:00Z'), ms('2026-12-31T00:00:00Z'), 'day')).toBe(365);
});

// Date.UTC maps years 0-99 to 1900-1999: a month histogram of records dated 0050 stopped after its
// first bucket (the next month was 1950-02), and the span of 0050 to 1950 was counted as weeks of
// 1950 alone, serving 99,139 buckets past the bound of 400.
it('steps, spans and bounds buckets in the years 0001-0099 as in any other', () => {
  expect(iso(bucketStart(ms('0050-03-15T10:00:00Z'), 'month'))).toBe('0050-03-01T00:00:00.000Z');
  expect(iso(bucketStart(ms('0050-03-15T10:00:00Z'), 'day'))).toBe('0050-03-15T00:00:00.000Z');
  expect(iso(nextBucketStart(ms('0050-01-01T00:00:00Z'), 'month'))).toBe(
    '0050-02-01T00:00:00.000Z',
  );
  expect(iso(nextBucketStart(ms('0099-12-01T00:00:00Z'), 'month'))).toBe(
    '0100-01-01T00:00:00.000Z',
  );
  expect(
    fillHistogram(
      [
        { start: ms('0050-01-01T00:00:00Z'), count: 1 },
        { start: ms('0050-03-01T00:00:00Z'), count: 1 },
      ],
      'month',
    ).map((b) => b.start),
  ).toEqual(['0050-01-01T00:00:00.000Z', '0050-02-01T00:00:00.000Z', '0050-03-01T00:00:00.000Z']);
  expect(bucketSpan(ms('0050-01-15T00:00:00Z'), ms('1950-01-20T00:00:00Z'), 'week')).toBe(99_139);
  expect(() =>
    fillHistogram(
      [
        { start: bucketStart(ms('0050-01-15T00:00:00Z'), 'week'), count: 1 },
        { start: bucketStart(ms('1950-01-20T00:00:00Z'), 'week'), count: 1 },
      ],
      'week',
    ),
  ).toThrow(ApiError);
});

it('fills the gaps between the first and last non-empty bucket, ascending', () => {
  const start = (d: string) => ms(`${d}T00:00:00Z`);
  expect(
    fillHistogram(
      [
        { start: start('2026-04-01'), count: 2 },
        { start: start('2026-01-01'), count: 1 },
      ],
      'month',
    ),
  ).toEqual([
    { start: '2026-01-01T00:00:00.000Z', count: 1 },
    { start: '2026-02-01T00:00:00.000Z', count: 0 },
    { start: '2026-03-01T00:00:00.000Z', count: 0 },
    { start: '2026-04-01T00:00:00.000Z', count: 2 },
  ]);
  expect(fillHistogram([], 'week')).toEqual([]);
});

it('400 buckets are served, 401 are 400 invalid_filter naming interval', () => {
  const first = ms('2026-01-01T00:00:00Z');
  const day = 86_400_000;
  expect(
    fillHistogram(
      [
        { start: first, count: 1 },
        { start: first + 399 * day, count: 1 },
      ],
      'day',
    ),
  ).toHaveLength(400);
  try {
    fillHistogram(
      [
        { start: first, count: 1 },
        { start: first + 400 * day, count: 1 },
      ],
      'day',
    );
    throw new Error('expected an error');
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_filter');
    expect((err as ApiError).details?.parameter).toBe('interval');
  }
});

it('the midpoint of a rate, or its one bound', () => {
  expect(rateMidpoint(500, 600)).toBe(550);
  expect(rateMidpoint(450, null)).toBe(450);
  expect(rateMidpoint(null, 700)).toBe(700);
  expect(rateMidpoint(null, null)).toBeNull();
  // Past half the largest double: (min + max) / 2 was Infinity.
  expect(rateMidpoint(1e308, 1e308)).toBe(1e308);
  expect(rateMidpoint(1.5e308, 1.7e308)).toBe(1.6e308);
  expect(rateMidpoint(Number.MAX_VALUE, null)).toBe(Number.MAX_VALUE);
  expect(rateMidpoint(0.1, 0.2)).toBe((0.1 + 0.2) / 2);
});

it('exact percentiles interpolate between the closest ranks (R-7)', () => {
  const values = (...v: number[]) => v.map((x) => [x, 1] as const);
  expect(exactPercentile(values(100, 200), 50)).toBe(150);
  expect(exactPercentile(values(100, 200, 300, 400, 1000), 25)).toBe(200);
  expect(exactPercentile(values(100, 200, 300, 400), 75)).toBe(325);
  expect(exactPercentile([[7, 3]], 50)).toBe(7);
  // Counted values: 450 ×2, 550 ×2, 600 ×2, 700.
  expect(
    exactPercentile(
      [
        [600, 2],
        [450, 2],
        [700, 1],
        [550, 2],
      ],
      25,
    ),
  ).toBe(500);
  expect(exactPercentile([], 50)).toBeNull();
});

it("the engine's own bucket limit is the caller's 400 too", () => {
  const refused = new ApiError('validation_error', 'The search engine refused this query.');
  refused.cause = {
    meta: {
      body: {
        error: {
          type: 'search_phase_execution_exception',
          caused_by: { type: 'too_many_buckets_exception' },
        },
      },
    },
  };
  expect(bucketLimitError(refused)?.details).toEqual({
    parameter: 'interval',
    reason: 'out_of_range',
  });
  expect(bucketLimitError(new ApiError('search_unavailable', 'down'))).toBeNull();
});
