// Date parameters (contract §6.5): a full ISO 8601 date-time with `Z` or a ±hh:mm offset, or a bare
// date YYYY-MM-DD meaning 00:00:00Z. Impossible calendar values (2026-02-30, 24:00) are rejected,
// which Date.parse alone would silently roll over.

import { utcMs } from '../utc-times';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2})))?$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * Epoch milliseconds of a valid date parameter, or undefined when it is not one. Stored instants
 * are whole milliseconds, so a value finer than that rounds to one that keeps the same records: an
 * inclusive lower bound (`round: 'up'`, the `_after` and `since` parameters) to the next
 * millisecond, an upper one (`'down'`) to the one it is in. Truncating a lower bound would admit
 * the record of that millisecond, which is before it.
 */
export function parseDateParam(value: string, round: 'up' | 'down'): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const num = (i: number): number => Number(m[i] ?? '0');
  const [year, month, day] = [num(1), num(2), num(3)];
  const [hour, minute, second] = [num(4), num(5), num(6)];
  const fraction = (m[7] ?? '').padEnd(3, '0');
  const finer = round === 'up' && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  const millis = Number(fraction.slice(0, 3)) + finer;
  const sign = m[9] === '-' ? -1 : 1;
  const [offHour, offMinute] = [num(10), num(11)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offHour > 23 || offMinute > 59) return undefined;
  const at = utcMs(year, month - 1, day, hour, minute, second, millis);
  return at - sign * (offHour * 60 + offMinute) * 60_000;
}

// The same rule as one regular expression, for the OpenAPI document: a JSON Schema
// `format: date-time` would refuse the bare dates the service takes, and a loose pattern would
// admit 2026-02-30, which the service refuses. Calendar-exact: month lengths and leap years
// (divisible by 4, not by 100 unless by 400). test/unit/date-pattern.test.ts holds it equal to
// parseDateParam.
const MONTH_31 = '(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])';
const MONTH_30 = '(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)';
const FEBRUARY = '02-(?:0[1-9]|1\\d|2[0-8])';
const LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const CALENDAR_DATE = `(?:\\d{4}-(?:${MONTH_31}|${MONTH_30}|${FEBRUARY})|${LEAP_YEAR}-02-29)`;
const HOUR = '(?:[01]\\d|2[0-3])';
const MINUTE = '[0-5]\\d';
const TIME = `T${HOUR}:${MINUTE}:${MINUTE}(?:\\.\\d{1,9})?(?:Z|[+-]${HOUR}:${MINUTE})`;

/** Exactly the values parseDateParam accepts (before trimming), as a JSON Schema pattern. */
export const DATE_PARAM_PATTERN = `^${CALENDAR_DATE}(?:${TIME})?$`;
