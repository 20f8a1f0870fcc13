import { utcDateTime } from '../../src/domain/utc-times';

// contract §1.8: the date-times a record is stored with are UTC, the same instant as written.

it.each([
  ['2026-11-15T12:00:00.500+02:00', '2026-11-15T10:00:00.500Z'],
  ['2026-11-15T00:30:00+01:00', '2026-11-14T23:30:00Z'],
  ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00Z'],
  ['2026-11-15T12:00:00.123456-05:30', '2026-11-15T17:30:00.123Z'],
  ['2026-11-15T12:00:00+00:00', '2026-11-15T12:00:00Z'],
  ['2026-11-15T12:00:00.5Z', '2026-11-15T12:00:00.5Z'],
  ['2026-11-15T12:00:00.123456Z', '2026-11-15T12:00:00.123Z'],
  ['2026-11-15T12:00:00.9999z', '2026-11-15T12:00:00.999Z'],
  ['2026-11-15T12:00Z', '2026-11-15T12:00Z'],
])('%s → %s', (written, stored) => {
  expect(utcDateTime(written)).toBe(stored);
  // The same instant to the millisecond (Date drops the digits past the third, as the store does).
  expect(new Date(stored).getTime()).toBe(new Date(written).getTime());
});

it('keeps as written a time whose UTC instant falls outside the four-digit years', () => {
  expect(utcDateTime('0000-01-01T00:30:00+01:00')).toBe('0000-01-01T00:30:00+01:00');
  expect(utcDateTime('9999-12-31T23:30:00-01:00')).toBe('9999-12-31T23:30:00-01:00');
});
