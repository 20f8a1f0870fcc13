import fc from 'fast-check';
import { DATE_PARAM_PATTERN, parseDateParam } from '../../src/domain/filters';

// The OpenAPI document's pattern for date parameters admits exactly what the service
// parses (parseDateParam), calendar included, so a schema-valid date is never refused and a
// refused one is never schema-valid.

const pattern = new RegExp(DATE_PARAM_PATTERN, 'u');
const agree = (value: string) =>
  expect({ value, schema: pattern.test(value) }).toEqual({
    value,
    schema: parseDateParam(value, 'up') !== undefined,
  });

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Date-shaped strings with every part possibly out of range: where a loose pattern would err. */
const dateLike = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    time: fc.option(
      fc.record({
        hour: fc.integer({ min: 0, max: 25 }),
        minute: fc.integer({ min: 0, max: 61 }),
        second: fc.integer({ min: 0, max: 61 }),
        fraction: fc.option(fc.stringMatching(/^\.\d{0,11}$/)),
        zone: fc.oneof(
          fc.constantFrom('Z', 'z', '', '+00', '+0000'),
          fc
            .tuple(
              fc.constantFrom('+', '-'),
              fc.integer({ min: 0, max: 25 }),
              fc.integer({ min: 0, max: 61 }),
            )
            .map(([s, h, m]) => `${s}${pad(h, 2)}:${pad(m, 2)}`),
        ),
        separator: fc.constantFrom('T', 'T', 'T', 't', ' '),
      }),
    ),
  })
  .map(({ year, month, day, time }) => {
    const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    if (!time) return date;
    const t = `${pad(time.hour, 2)}:${pad(time.minute, 2)}:${pad(time.second, 2)}`;
    return `${date}${time.separator}${t}${time.fraction ?? ''}${time.zone}`;
  });

it('agrees with parseDateParam on chosen cases', () => {
  for (const value of [
    '2026-01-31', '2026-01-31T09:00:00Z', '2026-01-31T09:00:00.123456789+05:30',
    '2024-02-29', '2000-02-29', '1900-02-29', '2026-02-29', '2026-02-30', '2026-04-31',
    '2026-13-01', '2026-00-10', '2026-01-31T24:00:00Z', '2026-01-31T23:59:60Z',
    '2026-01-31T09:00:00', '2026-01-31T09:00Z', '2026-01-31 09:00:00Z', '2026-01-31T09:00:00z',
    '2026-01-31T09:00:00.Z', '2026-01-31T09:00:00.1234567890Z', '2026-01-31T09:00:00+0530',
    '26-01-31', '+2026-01-31', '2026-1-31', '', 'yesterday', '0000-02-29', '0100-02-29',
  ]) agree(value); // prettier-ignore
});

it('agrees with parseDateParam on generated date-like strings', () => {
  fc.assert(
    fc.property(dateLike, (value) => agree(value)),
    { numRuns: 3000, seed: 20261125 },
  );
});

it('agrees with parseDateParam on arbitrary strings', () => {
  fc.assert(
    fc.property(fc.string(), (value) => agree(value)),
    { numRuns: 1000, seed: 20261125 },
  );
});

// Stored instants are whole milliseconds: a finer bound keeps exactly the records the exact
// instant would (contract §6.12: every bound inclusive).
it.each([
  ['2026-10-20T00:00:00.5001Z', 'up', '2026-10-20T00:00:00.501Z'],
  ['2026-10-20T00:00:00.5001Z', 'down', '2026-10-20T00:00:00.500Z'],
  ['2026-10-20T00:00:00.5000000Z', 'up', '2026-10-20T00:00:00.500Z'],
  ['2026-10-20T00:00:00.9999Z', 'up', '2026-10-20T00:00:01.000Z'],
  ['2026-12-31T23:59:59.999000001Z', 'up', '2027-01-01T00:00:00.000Z'],
  ['2026-10-20T00:00:00.1Z', 'up', '2026-10-20T00:00:00.100Z'],
  ['2026-10-20', 'up', '2026-10-20T00:00:00.000Z'],
] as const)('%s rounded %s is %s', (value, round, instant) => {
  expect(new Date(parseDateParam(value, round) as number).toISOString()).toBe(instant);
});
