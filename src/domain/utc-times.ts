import type { Opportunity } from './record';

// contract §1.8: date-times are served as ISO 8601 strings in UTC. An imported record may write
// them with an offset (the schema takes any ISO 8601 date-time); they are stored in UTC, the same
// instant, so that what is served is UTC whatever came in. The fraction of a second is kept to the
// millisecond (digits past the third are dropped): the index and the time filters compare whole
// milliseconds (contract §6.12), and a finer stored instant made a lower bound rounded up to the
// next millisecond pass over the very record whose `changed_at` a client resumed from.

/**
 * Date.UTC for every year: Date.UTC maps years 0-99 to 1900-1999 (a record dated 0050-01-15 had
 * its month histogram end in 1950), setUTCFullYear does not. Months and days past their range
 * roll over as Date.UTC's do (month 12 is January of the next year, day 0 the last of the month
 * before).
 */
export function utcMs(
  year: number,
  month: number,
  day = 1,
  hours = 0,
  minutes = 0,
  seconds = 0,
  ms = 0,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hours, minutes, seconds, ms);
  return date.getTime();
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** The same instant in UTC (`…Z`), to the millisecond; a text of another form as it is. */
export function utcDateTime(text: string): string {
  const parts = DATE_TIME.exec(text);
  if (!parts) return text;
  const [, wholeSeconds = '', written = '', offset = ''] = parts;
  const fraction = written.slice(0, 4);
  if (/^z$/i.test(offset)) return `${wholeSeconds}${fraction}Z`;
  const instant = new Date(`${wholeSeconds}${offset}`).toISOString();
  // A year beyond 0000-9999 once in UTC has no four-digit form: as written (the record schema
  // refuses such a time on import, so only a text from elsewhere gets here).
  if (!/^\d{4}-/.test(instant)) return text;
  return `${instant.slice(0, 19)}${fraction}Z`;
}

const orNull = (text: string | null) => (text === null ? null : utcDateTime(text));

/** The record with every date-time of it in UTC. */
export function recordInUtc(record: Opportunity): Opportunity {
  return {
    ...record,
    published_at: orNull(record.published_at),
    first_seen: utcDateTime(record.first_seen),
    changed_at: utcDateTime(record.changed_at),
    last_verified_live_at: orNull(record.last_verified_live_at),
    sources: record.sources.map((source) => ({
      ...source,
      observed_at: utcDateTime(source.observed_at),
    })),
  };
}
