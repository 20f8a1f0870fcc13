// Date parameters (decisions 2): a full ISO 8601 date-time with `Z` or a ±hh:mm offset, or a bare
// date YYYY-MM-DD meaning 00:00:00Z. Impossible calendar values (2026-02-30, 24:00) are rejected,
// which Date.parse alone would silently roll over.

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2})))?$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Epoch milliseconds of a valid date parameter, or undefined when it is not one. */
export function parseDateParam(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const num = (i: number): number => Number(m[i] ?? '0');
  const [year, month, day] = [num(1), num(2), num(3)];
  const [hour, minute, second] = [num(4), num(5), num(6)];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const sign = m[9] === '-' ? -1 : 1;
  const [offHour, offMinute] = [num(10), num(11)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offHour > 23 || offMinute > 59) return undefined;
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime() - sign * (offHour * 60 + offMinute) * 60_000;
}
