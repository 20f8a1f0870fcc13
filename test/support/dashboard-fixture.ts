import type { Opportunity, Rate } from '../../src/domain/record';
import type { RateStatsEntry } from '../../src/domain/aggregates';
import { CLASSES, classified, makeRecord } from './fixtures';

// contract §10.4, §10.5's fixture and oracle: records placed on the edges that matter (a month's last
// instant and the next one's first, a Sunday night and a Monday 00:00, a week across the new
// year, weeks and a month with no record), with and without published_at, and rates of every
// shape (none, both bounds, min only, max only) in several units and currencies. The oracle uses
// none of src/: calendar arithmetic by day numbers, percentiles by sorting.

const DAY = 86_400_000;

interface Spec {
  published: string | null;
  firstSeen: string;
  rate: Rate | null;
  family: 'data' | 'software_engineering';
  country: 'GB' | 'US';
}

const gbpDay = (min: number | null, max: number | null): Rate => ({
  min,
  max,
  currency: 'GBP',
  unit: 'day',
});

const SPECS: Spec[] = [
  // 2025-12-29 is a Monday: its week runs across the new year.
  {
    published: '2025-12-29T00:00:00Z',
    firstSeen: '2025-12-29T08:00:00Z',
    rate: gbpDay(500, 600),
    family: 'data',
    country: 'GB',
  },
  {
    published: '2025-12-31T23:59:59.999Z',
    firstSeen: '2026-01-01T00:00:00Z',
    rate: gbpDay(450, null),
    family: 'data',
    country: 'GB',
  },
  {
    published: '2026-01-01T00:00:00Z',
    firstSeen: '2026-01-02T10:00:00Z',
    rate: gbpDay(null, 700),
    family: 'data',
    country: 'GB',
  },
  {
    published: null,
    firstSeen: '2026-01-04T23:59:59Z',
    rate: null,
    family: 'software_engineering',
    country: 'US',
  }, // Sunday
  {
    published: '2026-01-05T00:00:00Z',
    firstSeen: '2026-01-05T00:00:00Z',
    rate: { min: 80, max: 100, currency: 'USD', unit: 'hour' },
    family: 'software_engineering',
    country: 'US',
  }, // Monday
  // nothing in the weeks of 2026-01-12 and 2026-01-19
  {
    published: '2026-01-31T23:59:59Z',
    firstSeen: '2026-02-01T00:00:00Z',
    rate: { min: null, max: 120, currency: 'USD', unit: 'hour' },
    family: 'software_engineering',
    country: 'US',
  },
  {
    published: '2026-02-01T00:00:00Z',
    firstSeen: '2026-02-01T00:00:01Z',
    rate: gbpDay(550, 650),
    family: 'data',
    country: 'GB',
  }, // a Sunday
  {
    published: null,
    firstSeen: '2026-02-02T00:00:00Z',
    rate: gbpDay(600, 600),
    family: 'data',
    country: 'GB',
  }, // Monday
  {
    published: '2026-02-02T12:00:00Z',
    firstSeen: '2026-02-03T12:00:00Z',
    rate: { min: 550, max: 700, currency: 'EUR', unit: 'day' },
    family: 'data',
    country: 'GB',
  },
  {
    published: '2026-02-28T23:59:59.999Z',
    firstSeen: '2026-03-01T00:00:00Z',
    rate: { min: 90000, max: 110000, currency: 'GBP', unit: 'year' },
    family: 'data',
    country: 'GB',
  },
  // no record in March's published time, one first seen there (above); April has none either
  {
    published: '2026-05-01T00:00:00Z',
    firstSeen: '2026-05-01T00:00:00Z',
    rate: gbpDay(400, 500),
    family: 'data',
    country: 'GB',
  },
  {
    published: '2026-05-03T23:00:00+02:00',
    firstSeen: '2026-05-04T09:00:00Z',
    rate: { min: 60, max: null, currency: 'USD', unit: 'hour' },
    family: 'software_engineering',
    country: 'US',
  },
  {
    published: null,
    firstSeen: '2026-05-10T10:00:00Z',
    rate: { min: 5000, max: 5000, currency: 'USD', unit: 'project' },
    family: 'software_engineering',
    country: 'US',
  },
  {
    published: '2026-05-11T00:00:00Z',
    firstSeen: '2026-05-11T00:00:00Z',
    rate: gbpDay(520, 580),
    family: 'data',
    country: 'GB',
  },
  {
    published: '2026-05-12T00:00:00Z',
    firstSeen: '2026-05-12T00:00:00Z',
    rate: null,
    family: 'data',
    country: 'GB',
  },
];

export const DASHBOARD_FIXTURE: Opportunity[] = SPECS.map((s, i) =>
  makeRecord({
    id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    published_at: s.published,
    published_precision: s.published ? 'second' : 'unknown',
    first_seen: new Date(s.firstSeen).toISOString(),
    changed_at: new Date(s.firstSeen).toISOString(),
    last_verified_live_at: new Date(s.firstSeen).toISOString(),
    rate: s.rate,
    pay_basis: s.rate === null ? 'unknown' : s.rate.unit === 'hour' ? 'hourly' : 'daily',
    ...classified(s.family === 'data' ? CLASSES.snowflake : CLASSES.javaBackend),
    location: {
      text: s.country === 'GB' ? 'London' : 'Austin, TX',
      city: s.country === 'GB' ? 'London' : 'Austin',
      region: null,
      region_code: null,
      country: s.country,
      remote: false,
      remote_scope: 'unknown',
    },
  }),
);

/** One far-away record (2023): with it, a day histogram of everything has more than 400 buckets. */
export const FAR_RECORD: Opportunity = makeRecord({
  id: '00000000-0000-4000-8000-000000000999',
  published_at: '2023-06-15T00:00:00Z',
  published_precision: 'second',
  first_seen: '2023-06-15T00:00:00.000Z',
  changed_at: '2023-06-15T00:00:00.000Z',
  last_verified_live_at: '2023-06-15T00:00:00.000Z',
  rate: null,
  pay_basis: 'unknown',
  ...classified(CLASSES.javaBackend),
});

export interface OracleFilter {
  family?: string;
  country?: string;
  /** fresh_after: freshness at or after this instant. */
  freshAfter?: string;
}

const freshness = (r: Opportunity) => r.published_at ?? r.first_seen;

export function matching(records: readonly Opportunity[], f: OracleFilter): Opportunity[] {
  return records.filter(
    (r) =>
      (!f.family || r.job_family === f.family) &&
      (!f.country || r.location.country === f.country) &&
      (!f.freshAfter || Date.parse(freshness(r)) >= Date.parse(f.freshAfter)),
  );
}

/** UTC bucket start by day numbers: 1970-01-01 was a Thursday, so Monday is (day + 3) % 7 == 0. */
function startOf(ms: number, interval: string): number {
  const day = Math.floor(ms / DAY);
  if (interval === 'day') return day * DAY;
  if (interval === 'week') return (day - ((day + 3) % 7)) * DAY;
  const iso = new Date(day * DAY).toISOString();
  return Date.parse(`${iso.slice(0, 7)}-01T00:00:00Z`);
}

function after(start: number, interval: string): number {
  if (interval === 'day') return start + DAY;
  if (interval === 'week') return start + 7 * DAY;
  return startOf(start + 32 * DAY, 'month');
}

export function histogramOracle(
  records: readonly Opportunity[],
  field: 'published' | 'first_seen',
  interval: string,
): { start: string; count: number }[] {
  const counts = new Map<number, number>();
  for (const r of records) {
    const at = Date.parse(field === 'published' ? freshness(r) : r.first_seen);
    const s = startOf(at, interval);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const starts = [...counts.keys()].sort((a, b) => a - b);
  const out: { start: string; count: number }[] = [];
  const first = starts[0];
  const last = starts[starts.length - 1];
  if (first === undefined || last === undefined) return out;
  for (let s = first; s <= last; s = after(s, interval)) {
    out.push({ start: new Date(s).toISOString(), count: counts.get(s) ?? 0 });
  }
  return out;
}

/** R-7 (PostgreSQL's percentile_cont): linear interpolation between the closest ranks. */
export function percentile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

/** The shape the API answers with; the oracle below computes its values independently. */
export type RateEntry = RateStatsEntry;

export function rateOracle(records: readonly Opportunity[], minCount = 1): RateEntry[] {
  const groups = new Map<string, number[]>();
  for (const r of records) {
    if (!r.rate) continue;
    const value =
      r.rate.min !== null && r.rate.max !== null
        ? (r.rate.min + r.rate.max) / 2
        : ((r.rate.min ?? r.rate.max) as number);
    const key = `${r.rate.unit} ${r.rate.currency}`;
    groups.set(key, [...(groups.get(key) ?? []), value]);
  }
  return [...groups]
    .map(([key, values]) => {
      const [unit = '', currency = ''] = key.split(' ');
      const sorted = [...values].sort((a, b) => a - b);
      const shown = sorted.length >= minCount;
      return {
        unit,
        currency,
        count: sorted.length,
        min: shown ? (sorted[0] as number) : null,
        max: shown ? (sorted[sorted.length - 1] as number) : null,
        p25: shown ? percentile(sorted, 0.25) : null,
        median: shown ? percentile(sorted, 0.5) : null,
        p75: shown ? percentile(sorted, 0.75) : null,
      };
    })
    .sort((a, b) =>
      a.count !== b.count
        ? b.count - a.count
        : a.unit !== b.unit
          ? a.unit < b.unit
            ? -1
            : 1
          : a.currency < b.currency
            ? -1
            : 1,
    );
}
