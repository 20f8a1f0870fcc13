import type { Opportunity } from './record';

// contract §1.8: date-times are served as ISO 8601 strings in UTC. An imported record may write
// them with an offset (the schema takes any ISO 8601 date-time); they are stored in UTC, the same
// instant, with the fraction of a second as written, so that what is served is UTC whatever came in.

const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(\.\d+)?([+-]\d{2}:\d{2})$/;

/** The same instant in UTC (`…Z`), the fraction as written; a time already in UTC as it is. */
export function utcDateTime(text: string): string {
  const parts = WITH_OFFSET.exec(text);
  if (!parts) return text;
  const [, wholeSeconds = '', fraction = '', offset = ''] = parts;
  const instant = new Date(`${wholeSeconds}${offset}`).toISOString();
  // A year beyond 0000-9999 once in UTC (0000-01-01T00:30+01:00) has no four-digit form: as written.
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
