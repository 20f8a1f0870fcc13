import { createHash } from 'node:crypto';
import taxonomyJson from '../../src/domain/taxonomy/occupations.v1.json';
import type { Location, Opportunity, Rate } from '../../src/domain/record';
import { CLASSES, classified, makeRecord } from './fixtures';

// A deliberately varied, deterministic inventory for the read-surface tests, and an oracle that
// implements contract §6 and §8 over it WITHOUT using any of src/ (only the taxonomy data file), so
// that the service is compared with the documented semantics, not with itself.

type Chain = readonly (string | null)[];

const CHAINS: ReadonlyArray<{ chain: Chain; title: string }> = [
  { chain: CLASSES.snowflake, title: 'snowflake data engineer' },
  { chain: CLASSES.etl, title: 'ETL Developer' },
  { chain: CLASSES.dataScientist, title: 'data scientist' },
  { chain: CLASSES.javaBackend, title: 'java backend developer' },
  { chain: CLASSES.react, title: 'React Developer' },
  { chain: ['software_data_ai', 'data', null, null], title: 'data professional' },
  { chain: ['software_data_ai', null, null, null], title: 'software generalist' },
  { chain: [null, null, null, null], title: 'technical writer' },
  {
    chain: [
      'infrastructure_security_hardware',
      'cloud_and_devops',
      'devops_engineering',
      'devops_engineer',
    ],
    title: 'devops engineer',
  },
  {
    chain: [
      'software_data_ai',
      'software_engineering',
      'backend_engineering',
      'python_backend_developer',
    ],
    title: 'python backend developer',
  },
  { chain: ['software_data_ai', 'data', 'data_engineering', null], title: 'data engineer' },
];

const LEVELS = ['senior', 'staff', 'mid', 'junior', 'principal', 'lead', 'unknown'] as const;
const TRACKS = ['individual_contributor', 'people_manager', 'unknown'] as const;
const ENGAGEMENTS: Opportunity['engagement_models'][] = [
  ['w2_contract', 'c2c'],
  [],
  ['c2c'],
  ['w2_contract'],
  ['1099'],
  ['1099', 'c2c'],
];
const ELIGIBILITY = ['eligible', 'unknown', 'ineligible', 'eligible', 'research_required'] as const;
const ACTIONABILITY = ['actionable', 'not_actionable', 'unknown', 'actionable'] as const;
const PAY_WORK: ReadonlyArray<[Opportunity['pay_basis'], Opportunity['work_structure']]> = [
  ['hourly', 'contract_duration'],
  ['hourly', 'ongoing_contract'],
  ['daily', 'ongoing_contract'],
  ['fixed_project', 'fixed_project'],
  ['hourly', 'freelance_ad_hoc'],
  ['annual', 'unknown'],
  ['unknown', 'unknown'],
  ['monthly', 'contract_duration'],
  ['hourly', 'contract_duration'],
];
const RATES: (Rate | null)[] = [
  { min: 80, max: 100, currency: 'USD', unit: 'hour' },
  null,
  { min: 90, max: null, currency: 'USD', unit: 'hour' },
  { min: null, max: 120, currency: 'USD', unit: 'hour' },
  { min: 600, max: 800, currency: 'EUR', unit: 'day' },
  { min: null, max: 70, currency: 'EUR', unit: 'hour' },
  { min: 150000, max: 180000, currency: 'USD', unit: 'year' },
  { min: 80.5, max: 80.5, currency: 'USD', unit: 'hour' },
];
const REMOTE = [true, false, null, true] as const;
type Place = Omit<Location, 'remote' | 'remote_scope'>;
const PLACES: Place[] = [
  { text: 'Austin, TX', city: 'Austin', region: 'Texas', region_code: 'TX', country: 'US' },
  {
    text: 'San Francisco, CA',
    city: 'San Francisco',
    region: 'California',
    region_code: 'CA',
    country: 'US',
  },
  { text: 'Toronto, ON', city: 'Toronto', region: 'Ontario', region_code: 'ON', country: 'CA' },
  { text: 'London', city: 'London', region: 'England', region_code: 'ENG', country: 'GB' },
  { text: 'AUSTIN TX', city: 'AUSTIN', region: 'Texas', region_code: 'TX', country: 'US' },
  { text: null, city: null, region: null, region_code: null, country: null },
  {
    text: 'los angeles',
    city: 'los angeles',
    region: 'California',
    region_code: null,
    country: 'US',
  },
  { text: 'Ottawa', city: 'Ottawa', region: 'Ontario', region_code: 'ON', country: 'CA' },
];
const SOURCES = [['greenhouse'], ['lever'], ['greenhouse', 'lever']] as const;
const LIVENESS = ['live', 'live', 'dead', 'live', 'unknown', 'blocked'] as const;
const SPECIALIZATIONS = [
  ['snowflake', 'dbt'],
  ['React', 'TypeScript'],
  [],
  ['Kubernetes'],
  ['DBT', 'Airflow'],
];

/** A deterministic, well-scattered uuid (v4 layout) so that id order is unrelated to index order. */
export function fixtureId(seed: string): string {
  const h = createHash('sha256').update(`read-fixture:${seed}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const pick = <T>(pool: readonly T[], i: number): T => pool[i % pool.length] as T;
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 8, 1); // 2026-09-01T00:00:00Z
const iso = (ms: number) => new Date(ms).toISOString();

/** Day n of the fixture calendar (n = 0 is 2026-09-01) at 00:00:00Z, as an ISO string. */
export const fixtureDay = (n: number, extraMs = 0): string => iso(BASE + n * DAY + extraMs);

function generated(i: number): Opportunity {
  const { chain, title } = pick(CHAINS, i);
  const [pay_basis, work_structure] = pick(PAY_WORK, i * 2 + 1);
  const dayMs = BASE + (i % 14) * DAY; // i, i+14, i+28 share a day: freshness ties
  const unpublished = i % 6 === 5;
  const precise = !unpublished && i % 9 === 2;
  const published = unpublished ? null : precise ? dayMs + 10.5 * 3_600_000 + 15_500 : dayMs;
  // An unpublished record falls back to first_seen at 00:00: ties with published ones of that day.
  const firstSeen = unpublished ? dayMs : dayMs + 6 * 3_600_000;
  const liveness = pick(LIVENESS, i);
  const sources = pick(SOURCES, i * 5 + 2);
  const remote = pick(REMOTE, i + 1);
  return makeRecord({
    id: fixtureId(String(i)),
    title: `${title} #${i}`,
    normalized_title: title,
    sources: sources.map((source, n) => ({
      source,
      external_id: `${source}-${i}-${n}`,
      url: `https://${source}.example.com/jobs/${i}`,
      observed_at: iso(firstSeen),
    })),
    published_at: published === null ? null : iso(published),
    published_precision: unpublished ? 'unknown' : precise ? 'second' : 'day',
    first_seen: iso(firstSeen),
    changed_at: iso(firstSeen + (i % 10) * DAY + (i % 3) * 3_600_000),
    last_verified_live_at: liveness === 'live' ? iso(firstSeen) : null,
    liveness_status: liveness,
    ...classified(chain),
    level: pick(LEVELS, i),
    management_track: pick(TRACKS, i * 2),
    specializations: [...pick(SPECIALIZATIONS, i * 3 + 1)],
    engagement_models: [...pick(ENGAGEMENTS, i)],
    commercial_eligibility: pick(ELIGIBILITY, i * 3),
    actionability: pick(ACTIONABILITY, i + 2),
    location: {
      ...pick(PLACES, i * 3 + 1),
      remote,
      remote_scope: remote === true ? pick(['country', 'worldwide'] as const, i) : 'unknown',
    },
    rate: pick(RATES, i * 5),
    pay_basis,
    work_structure,
  });
}

/** Hand-made edge records: one instant spelled three ways, and fallback freshness on that instant. */
const SPECIALS: Opportunity[] = [
  makeRecord({
    id: fixtureId('offset'),
    normalized_title: 'Snowflake Data Engineer',
    published_at: '2026-09-20T02:00:00+02:00', // == 2026-09-20T00:00:00Z
    published_precision: 'second',
    first_seen: '2026-09-20T01:00:00.000Z',
    changed_at: '2026-09-25T00:00:00.000Z',
    specializations: ['Snowflake', 'Data Vault'],
    engagement_models: ['c2c'],
    location: {
      text: 'Remote, California',
      city: 'San Francisco',
      region: 'California',
      region_code: 'CA',
      country: 'US',
      remote: true,
      remote_scope: 'country',
    },
  }),
  makeRecord({
    id: fixtureId('utc'),
    published_at: '2026-09-20T00:00:00Z',
    published_precision: 'day',
    first_seen: '2026-09-20T03:00:00.000Z',
    changed_at: '2026-09-20T03:00:00.000Z',
    liveness_status: 'dead',
    last_verified_live_at: null,
    sources: [
      {
        source: 'lever',
        external_id: 'utc',
        url: 'https://lever.example.com/utc',
        observed_at: '2026-09-20T03:00:00.000Z',
      },
    ],
  }),
  makeRecord({
    id: fixtureId('fallback'),
    ...classified(CLASSES.react),
    normalized_title: 'react developer',
    published_at: null,
    published_precision: 'unknown',
    first_seen: '2026-09-20T00:00:00.000Z',
    changed_at: '2026-09-21T00:00:00.000Z',
    rate: null,
    engagement_models: ['w2_contract'],
    commercial_eligibility: 'unknown',
  }),
  // Letters whose lower case in JavaScript (full mapping, in context) is not the engine's.
  makeRecord({
    id: fixtureId('dotted'),
    published_at: '2026-09-06T08:00:00Z',
    specializations: ['İş Analizi'],
    location: {
      text: 'İstanbul, Türkiye',
      city: 'İstanbul',
      region: 'İstanbul',
      region_code: '34',
      country: 'TR',
      remote: false,
      remote_scope: 'unknown',
    },
  }),
  makeRecord({
    id: fixtureId('sigma'),
    published_at: '2026-09-06T09:00:00Z',
    location: {
      text: 'ΠΑΤΡΑΣ',
      city: 'ΠΑΤΡΑΣ',
      region: 'ΔΥΤΙΚΗ ΕΛΛΑΔΑΣ',
      region_code: null,
      country: 'GR',
      remote: false,
      remote_scope: 'unknown',
    },
  }),
];

export const FIXTURE: readonly Opportunity[] = [
  ...Array.from({ length: 40 }, (_, i) => generated(i)),
  ...SPECIALS,
];

// ---------------------------------------------------------------------------------------------
// Oracle: contract §6 (one small predicate per parameter) and §8.1 (order).

const ms = (value: string): number => {
  const t = new Date(value).getTime();
  if (Number.isNaN(t)) throw new Error(`oracle: bad date ${value}`);
  return t;
};
/**
 * Case folding of contract §6.11.6: each code point by its simple lower case (İ → i, Σ → σ
 * wherever it stands), not JavaScript's full, in-context mapping (a word-final Σ → ς, İ → i +
 * U+0307), so `city=πατρασ` finds `ΠΑΤΡΑΣ`; the letters only Unicode 17 gave a lower case are
 * kept as they are, as the engine keeps them.
 */
const ENGINE_KEEPS = /[\ua7ce\ua7d2\ua7d4\u{16ea0}-\u{16eb8}]/u;
export function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\u0130') out += 'i';
    else if (ENGINE_KEEPS.test(ch)) out += ch;
    else {
      const lower = ch.toLowerCase();
      out += [...lower].length === 1 ? lower : ch;
    }
  }
  return out;
}
const same = (a: string | null | undefined, b: string) =>
  a !== null && a !== undefined && fold(a) === fold(b);
const list = (value: string) => value.split(',').map((v) => v.trim());

const NODES = new Map(
  (taxonomyJson as { nodes: { id: string; parent_id: string | null; level: string }[] }).nodes.map(
    (n) => [n.id, n],
  ),
);

/** Every taxonomy id a record is classified under (its deepest id and all its ancestors). */
function ancestors(r: Opportunity): Set<string> {
  const out = new Set<string>();
  for (const id of [r.job_domain, r.job_family, r.job_subfamily, r.job_class]) {
    let node = id ? NODES.get(id) : undefined;
    while (node && node.level !== 'root') {
      out.add(node.id);
      node = node.parent_id ? NODES.get(node.parent_id) : undefined;
    }
  }
  return out;
}

export const familyOf = (subfamily: string): string | null =>
  NODES.get(subfamily)?.parent_id ?? null;

export type Query = Record<string, string>;
type Predicate = (r: Opportunity, value: string, q: Query) => boolean;

const upper = (r: Opportunity) => (r.rate ? (r.rate.max ?? r.rate.min) : null);
const lower = (r: Opportunity) => (r.rate ? (r.rate.min ?? r.rate.max) : null);

/** A number as the plain decimal String() means (`1e-7` → `0.0000001`), as whole and fraction. */
function plainDigits(text: string): { whole: string; fraction: string } {
  const [significand = '0', power = '0'] = text.split('e');
  const [w = '', f = ''] = significand.split('.');
  const digits = w + f;
  const point = w.length + Number(power);
  const full =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits.padEnd(point, '0')
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  const [whole = '', fraction = ''] = full.split('.');
  return { whole: whole.replace(/^0+/, ''), fraction: fraction.replace(/0+$/, '') };
}

/**
 * Sign of the stored rate minus the filter's decimal text, compared as written (contract §6.9),
 * digit by digit: not through Number(), which rounds a text of more digits than a double holds.
 * The stored amount is read as the shortest decimal of its double, as the API prints it
 * (`1e-7` included).
 */
function compareRate(rate: number, text: string): number {
  const a = plainDigits(String(rate));
  const b = plainDigits(text);
  if (a.whole.length !== b.whole.length) return a.whole.length - b.whole.length;
  if (a.whole !== b.whole) return a.whole > b.whole ? 1 : -1;
  if (a.fraction === b.fraction) return 0;
  return a.fraction > b.fraction ? 1 : -1;
}

/** contract §6, one predicate per filter parameter of §6.1. */
export const ORACLE: Record<string, Predicate> = {
  published_after: (r, v) => r.published_at !== null && ms(r.published_at) >= ms(v),
  published_before: (r, v) => r.published_at !== null && ms(r.published_at) <= ms(v),
  fresh_after: (r, v) => ms(r.published_at ?? r.first_seen) >= ms(v),
  job_domain: (r, v) => ancestors(r).has(v),
  // A family includes its descendants; a given subfamily narrows its own family only.
  job_family: (r, v, q) => {
    const subs = q.job_subfamily ? list(q.job_subfamily) : [];
    const anc = ancestors(r);
    return list(v).some((family) => {
      const narrowed = subs.filter((s) => familyOf(s) === family);
      return narrowed.length > 0 ? narrowed.some((s) => anc.has(s)) : anc.has(family);
    });
  },
  job_subfamily: (r, v, q) =>
    q.job_family !== undefined || list(v).some((s) => ancestors(r).has(s)),
  job_class: (r, v) => r.job_class !== null && list(v).includes(r.job_class),
  normalized_title: (r, v) => same(r.normalized_title, v),
  level: (r, v) => list(v).includes(r.level),
  management_track: (r, v) => r.management_track === v,
  specializations: (r, v) => r.specializations.some((s) => same(s, v)),
  engagement_model: (r, v) => (r.engagement_models as string[]).includes(v),
  commercial_eligibility: (r, v) => r.commercial_eligibility === v,
  actionability: (r, v) => r.actionability === v,
  remote: (r, v) => r.location.remote === (v === 'true'),
  country: (r, v) => same(r.location.country, v),
  city: (r, v) => same(r.location.city, v),
  state: (r, v) => same(r.location.region, v) || same(r.location.region_code, v),
  region: (r, v) => same(r.location.region, v) || same(r.location.region_code, v),
  rate_min: (r, v) => upper(r) !== null && compareRate(upper(r) ?? 0, v) >= 0,
  rate_max: (r, v) => lower(r) !== null && compareRate(lower(r) ?? 0, v) <= 0,
  currency: (r, v) => same(r.rate?.currency, v),
  pay_basis: (r, v) => list(v).includes(r.pay_basis),
  work_structure: (r, v) => {
    const wanted = list(v);
    if (wanted.includes('ongoing_contract')) wanted.push('contract_duration');
    return wanted.includes(r.work_structure);
  },
  source: (r, v) => r.sources.some((s) => same(s.source, v)),
  liveness_status: (r, v) => r.liveness_status === v,
  first_seen_after: (r, v) => ms(r.first_seen) >= ms(v),
  changed_since: (r, v) => ms(r.changed_at) >= ms(v),
};

/** Every filter parameter of contract §6.1, as the contract lists them. */
export const CONTRACT_FILTERS = Object.keys(ORACLE);

export const freshness = (r: Opportunity): number => ms(r.published_at ?? r.first_seen);

/** contract §8.1: freshness descending, then id ascending. */
export function inListOrder(records: readonly Opportunity[]): Opportunity[] {
  return [...records].sort(
    (a, b) => freshness(b) - freshness(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The records a query should return, in list order (different parameters AND together). */
export function expected(q: Query, records: readonly Opportunity[] = FIXTURE): Opportunity[] {
  for (const name of Object.keys(q)) {
    if (!ORACLE[name]) throw new Error(`oracle: no rule for ${name}`);
  }
  return inListOrder(
    records.filter((r) =>
      Object.entries(q).every(([name, value]) => (ORACLE[name] as Predicate)(r, value, q)),
    ),
  );
}

export const idsOf = (records: readonly { id: string }[]): string[] => records.map((r) => r.id);

/** Encodes a query object as a URL query string (values percent-encoded, `+` included). */
export const qs = (q: Query): string =>
  Object.entries(q)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
