import fc from 'fast-check';
import type { Opportunity, Rate } from '../../../src/domain/record';
import {
  ACTIONABILITY,
  COMMERCIAL_ELIGIBILITY,
  ENGAGEMENT_MODELS,
  LEVELS,
  LIVENESS_STATUSES,
  MANAGEMENT_TRACKS,
  PAY_BASES,
  WORK_STRUCTURES,
} from '../../../src/domain/vocab';
import { makeRecord } from '../fixtures';
import { ORACLE, expected, fold, type Query } from '../read-fixture';
import { BY_ID, FOCUS_CLASSES, chainTo, idsAt, type TaxonomyNode } from './taxonomy';

// Random opportunity records and random filter queries over them (contract §2, §6), and an oracle
// that says what a query must answer: the ids in list order (read-fixture.ts's `expected`, given
// the normalized values of the query), or the 4xx it must be refused with. Like read-fixture.ts
// it uses no logic of src/, only its data (the taxonomy file, the vocabularies), so the service
// is held to the documented semantics, not to itself.

// ---------------------------------------------------------------------------------------------
// The taxonomy (./taxonomy.ts).

const DOMAINS = idsAt('domain');
const FAMILIES = idsAt('family');
const SUBFAMILIES = idsAt('subfamily');
const CLASSES = idsAt('class');
const levelOf = (id: string) => BY_ID.get(id)?.level;
const parentOf = (id: string) => BY_ID.get(id)?.parent_id ?? null;

const FOCUS_NODES = [
  ...FOCUS_CLASSES,
  'data_engineering',
  'data_science',
  'frontend_engineering',
  'backend_engineering',
  'data',
  'software_engineering',
  'cloud_and_devops',
  'software_data_ai',
];

// ---------------------------------------------------------------------------------------------
// Shared pools: values that several records and queries meet on.

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 8, 1); // 2026-09-01T00:00:00Z
/** Instants around day boundaries: the bounds the queries take are these, give or take. */
const INSTANTS: readonly number[] = [0, 1, 2].flatMap((d) => [
  BASE + d * DAY,
  BASE + d * DAY + 1,
  BASE + d * DAY - 1,
  BASE + d * DAY + 12 * 3_600_000,
  BASE + d * DAY + 999,
]);
const iso = (ms: number) => new Date(ms).toISOString();

/** The same instant written another way: without milliseconds, or with a numeric offset. */
function spell(ms: number, how: number): string {
  const text = iso(ms);
  // An offset must not take the local time out of the years 0001-9999.
  const year = new Date(ms).getUTCFullYear();
  if (year <= 1 || year >= 9999) return text;
  if (how === 1 && ms % 1000 === 0) return text.replace('.000Z', 'Z');
  if (how === 2) {
    const local = new Date(ms + 2 * 3_600_000).toISOString();
    return local.replace('Z', '+02:00');
  }
  if (how === 3) {
    const local = new Date(ms - 5.5 * 3_600_000).toISOString();
    return local.replace('Z', '-05:30');
  }
  return text;
}

/** The first and last instants a record may hold (contract §2.7.3). */
const EXTREME_INSTANTS = [
  Date.parse('0001-01-01T00:00:00.000Z'),
  Date.parse('9999-12-31T23:59:59.999Z'),
];
const instant = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...INSTANTS) },
  { weight: 1, arbitrary: fc.constantFrom(...EXTREME_INSTANTS) },
);
/** Mostly UTC as import stores it; now and then an offset, as FIXTURE has one. */
const spelledInstant = fc
  .tuple(instant, fc.constantFrom(0, 0, 0, 0, 1, 1, 2, 3))
  .map(([ms, how]) => spell(ms, how));

const COUNTRIES = ['US', 'CA', 'GB', 'TR', 'GR', 'DE', 'KE', 'SE'] as const;
const PLACES = [
  { city: 'Austin', region: 'Texas', region_code: 'TX', country: 'US' },
  { city: 'AUSTIN', region: 'texas', region_code: 'tx', country: 'US' },
  { city: 'austin', region: 'Texas', region_code: null, country: 'US' },
  { city: 'San Francisco', region: 'California', region_code: 'CA', country: 'US' },
  { city: 'Toronto', region: 'Ontario', region_code: 'ON', country: 'CA' },
  { city: 'Montréal', region: 'Québec', region_code: 'QC', country: 'CA' },
  { city: 'Montre\u0301al', region: 'Que\u0301bec', region_code: 'QC', country: 'CA' },
  { city: 'İstanbul', region: 'İstanbul', region_code: '34', country: 'TR' },
  { city: 'istanbul', region: 'ISTANBUL', region_code: '34', country: 'TR' },
  { city: 'ΠΑΤΡΑΣ', region: 'ΔΥΤΙΚΗ ΕΛΛΑΔΑΣ', region_code: null, country: 'GR' },
  { city: 'πατρας', region: 'Δυτική Ελλάδα', region_code: null, country: 'GR' },
  { city: 'Straße', region: 'Bayern', region_code: 'BY', country: 'DE' },
  { city: 'STRASSE', region: 'BAYERN', region_code: 'by', country: 'DE' },
  { city: '\u212Aisumu', region: 'Kisumu', region_code: '\u212A', country: 'KE' },
  { city: 'Ꞗ\uA7CEtown', region: '\uA7CE', region_code: null, country: 'SE' },
  { city: ' Austin', region: ' Texas', region_code: 'TX ', country: 'US' },
  { city: '', region: '', region_code: '', country: null },
  { city: null, region: null, region_code: null, country: null },
  { city: 'London', region: 'England', region_code: 'ENG', country: 'GB' },
  { city: 'Straße', region: 'ẞayern', region_code: null, country: 'DE' },
  { city: '\u1C92\u1C90\u1CA0\u1CA3', region: 'ᏣᎳᎩ', region_code: null, country: 'GE' },
  { city: '\u{10400}\u{10428}', region: 'Austin\u0085', region_code: null, country: 'US' },
  { city: 'London', region: 'Ontario', region_code: 'ON', country: 'CA' },
  { city: null, region: 'California', region_code: 'CA', country: null },
] as const;

const TITLES = [
  'snowflake data engineer',
  'Snowflake Data Engineer',
  'SNOWFLAKE DATA ENGINEER',
  'ETL Developer',
  'react developer',
  'İş Analisti',
  'iş analisti',
  'ΣΥΜΒΟΥΛΟΣ',
  'συμβουλος',
  'data engineer ',
];
const SPECIALIZATIONS = [
  'dbt',
  'DBT',
  'Snowflake',
  'data vault',
  'Data Vault',
  'İş Analizi',
  'iş analizi',
  'k8s',
  '\u212A8s',
  'ſql',
  'SQL',
  'Straße',
  'ΟΔΟΣ',
  'οδοσ',
];
const SOURCES = ['greenhouse', 'lever', 'workday', 'ashby.io', 'a-b_c'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY'];
const UNITS: Rate['unit'][] = ['hour', 'day', 'month', 'year', 'project'];
/** Amounts that sit on the query bounds, a double that is not its decimal, and 2^53 - 1. */
const AMOUNTS = [
  0, 0.1, 0.3, 0.30000000000000004, 0.5, 50, 80, 80.5, 99.99, 100, 100.5, 600, 150000,
  9007199254740991, 1e-7, 5e-324,
];

const TRACKS = MANAGEMENT_TRACKS;
const ENGAGEMENTS = ENGAGEMENT_MODELS;
const ELIGIBILITY = COMMERCIAL_ELIGIBILITY;
const LIVENESS = LIVENESS_STATUSES;

// ---------------------------------------------------------------------------------------------
// Records.

const rateArb: fc.Arbitrary<Rate | null> = fc.option(
  fc
    .tuple(
      fc.option(fc.constantFrom(...AMOUNTS), { freq: 4 }),
      fc.option(fc.constantFrom(...AMOUNTS), { freq: 4 }),
      fc.constantFrom(...CURRENCIES),
      fc.constantFrom(...UNITS),
    )
    .map(([a, b, currency, unit]) => {
      // Never both null; min never above max.
      const [min, max] =
        a === null && b === null ? [80, null] : a !== null && b !== null && a > b ? [b, a] : [a, b];
      return { min, max, currency, unit };
    }),
  { freq: 4 },
);

const classificationArb = fc
  .oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: fc.constantFrom(...FOCUS_NODES) },
    { weight: 1, arbitrary: fc.constantFrom(...CLASSES, ...SUBFAMILIES, ...FAMILIES, ...DOMAINS) },
  )
  .map(chainTo);

const recordArb: fc.Arbitrary<Opportunity> = fc
  .record({
    id: fc.uuid({ version: 4 }),
    title: fc.constantFrom('Data Engineer', 'Contract role', 'Rôle'),
    normalized_title: fc.constantFrom(...TITLES),
    employer: fc.option(fc.constantFrom('Acme Analytics', 'ACME', 'Zeta GmbH')),
    published: fc.option(spelledInstant, { freq: 4 }),
    precision: fc.constantFrom('second', 'day', 'month'),
    first_seen: spelledInstant,
    changed_at: spelledInstant,
    liveness_status: fc.constantFrom(...LIVENESS),
    chain: classificationArb,
    level: fc.constantFrom(...LEVELS),
    management_track: fc.constantFrom(...TRACKS),
    specializations: fc.uniqueArray(fc.constantFrom(...SPECIALIZATIONS), { maxLength: 3 }),
    engagement_models: fc.uniqueArray(fc.constantFrom(...ENGAGEMENTS), { maxLength: 3 }),
    commercial_eligibility: fc.constantFrom(...ELIGIBILITY),
    actionability: fc.constantFrom(...ACTIONABILITY),
    place: fc.constantFrom(...PLACES),
    remote: fc.constantFrom(true, false, null),
    rate: rateArb,
    pay_basis: fc.constantFrom(...PAY_BASES),
    work_structure: fc.constantFrom(...WORK_STRUCTURES),
    sources: fc.uniqueArray(fc.constantFrom(...SOURCES), { minLength: 0, maxLength: 3 }),
  })
  .map((g) => {
    const [job_domain = null, job_family = null, job_subfamily = null, job_class = null] = g.chain;
    return makeRecord({
      id: g.id,
      title: g.title,
      normalized_title: g.normalized_title,
      employer: g.employer,
      organizations: g.employer ? [{ name: g.employer, role: 'employer' }] : [],
      published_at: g.published,
      published_precision: g.published === null ? 'unknown' : g.precision,
      first_seen: g.first_seen,
      changed_at: g.changed_at,
      last_verified_live_at: g.liveness_status === 'live' ? g.first_seen : null,
      liveness_status: g.liveness_status,
      job_domain,
      job_family,
      job_subfamily,
      job_class,
      level: g.level,
      management_track: g.management_track,
      specializations: g.specializations,
      engagement_models: g.engagement_models,
      commercial_eligibility: g.commercial_eligibility,
      actionability: g.actionability,
      location: {
        text: g.place.city,
        city: g.place.city,
        region: g.place.region,
        region_code: g.place.region_code,
        country: g.place.country,
        remote: g.remote,
        remote_scope: g.remote === true ? 'country' : 'unknown',
      },
      rate: g.rate,
      pay_basis: g.pay_basis,
      work_structure: g.work_structure,
      sources: g.sources.map((source, n) => ({
        source,
        external_id: `${source}-${n}`,
        url: `https://${source}.example.com/${g.id}`,
        observed_at: g.first_seen,
      })),
      evidence: [],
    });
  });

/** 10 to 40 records, ids unique. */
export const recordsArb = (min = 10, max = 40): fc.Arbitrary<Opportunity[]> =>
  fc.uniqueArray(recordArb, { minLength: min, maxLength: max, selector: (r) => r.id });

// ---------------------------------------------------------------------------------------------
// Query values: taken from the records most of the time, in another case, padded, listed.

/** Texts at the bound of 300 code points (an emoji is one), over it, and odd ones. */
const ODD_TEXTS = [
  '\u{1F600}'.repeat(300),
  '\u{1F600}'.repeat(301),
  'a'.repeat(301),
  '%',
  '+',
  'a+b',
  '\u0085',
  ' \u0085 ',
  '\u200b',
];

/** Dates at the edges of what §6.5 takes, and a few it does not. */
const ODD_DATES = [
  '0001-01-01',
  '0000-01-01',
  '0000-01-01T00:00:00+01:00', // in year -1 once in UTC
  '9999-12-31T23:59:59-01:00', // in year 10000 once in UTC
  '9999-12-31T23:59:59.999999999Z',
  '2028-02-29',
  '2026-02-29',
  '2026-09-01T24:00:00Z',
  '2026-09-01T23:59:60Z',
  '2026-09-01T00:00:00.1234567890Z',
  '2026-09-01T00:00Z',
  '20260901',
  '2026-09-01 00:00:00Z',
  '2026-09-01T00:00:00+0200',
  '2026-09-01T00:00:00-00:00',
  '2026-09-02T00:00:00+23:59',
  '2026-09-01t00:00:00z',
];

/** Decimals at the edges of §6.9.5, and a few it refuses. */
const ODD_DECIMALS = [
  '9'.repeat(308),
  `${'9'.repeat(308)}.5`,
  `${'0'.repeat(308)}5`, // 309 digits before the point, leading zeros count
  `1${'0'.repeat(308)}`,
  `0.${'0'.repeat(400)}1`,
  '9007199254740993',
  '9007199254740991.5',
  '9007199254740990.5',
  '0.0',
  '00',
  '1e3',
  '-1',
  '.5',
  '5.',
  '\uff11\uff12', // full-width digits
  '1 0',
  '0.0000001',
  '0.00000009999999999999',
  '0.000000100000000000001',
  `0.${'0'.repeat(323)}5`,
  `0.${'0'.repeat(323)}4`,
];

/** JavaScript's trim removes these (contract §6.4); U+0085 it keeps. */
const TRIMMED = [' ', '\t', '\u00a0', '\u3000', '\ufeff'];

/** A value padded with trimmed white space now and then (and, rarely, with U+0085). */
const padded = (arb: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(
      arb,
      fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1, 2, 3),
      fc.constantFrom(...TRIMMED),
      fc.constantFrom(...TRIMMED),
    )
    .map(([v, how, a, b]) =>
      how === 1 ? `${a}${v}` : how === 2 ? `${a}${v}${b}` : how === 3 && v ? `${v}\u0085` : v,
    );

/** Another spelling of a text: upper, lower, as is, or a mix. */
const recased = (arb: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(arb, fc.constantFrom(0, 0, 1, 2, 3)).map(([v, how]) => {
    if (how === 1) return v.toUpperCase();
    if (how === 2) return v.toLowerCase();
    if (how === 3) return [...v].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    return v;
  });

const fromRecords = <T>(records: readonly Opportunity[], f: (r: Opportunity) => T[]): T[] =>
  records.flatMap(f);

const textValue = (found: string[], pool: readonly string[]) =>
  fc.oneof(
    {
      weight: 20,
      arbitrary: padded(recased(fc.constantFrom(...found.filter((v) => v !== ''), ...pool))),
    },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_TEXTS) },
  );

/** A comma list of 1 to 3 values (now and then with an empty item or a repeat). */
const listOf = (values: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(values, { minLength: 1, maxLength: 3 }),
      fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2),
    )
    .map(([items, how]) => {
      const list = how === 1 ? [...items, ''] : how === 2 ? [...items, items[0] ?? ''] : items;
      return list.join(',');
    });

/** Mostly `value`, now and then one of the odd values of its kind; padded with white space at times. */
const oftenThis = (value: string, odd: readonly string[]): fc.Arbitrary<string> =>
  padded(
    fc.oneof(
      { weight: 12, arbitrary: fc.constant(value) },
      { weight: 1, arbitrary: fc.constantFrom(...odd) },
    ),
  );

/** A date bound near the records' instants: exact, a millisecond off, finer, bare, offset. */
const dateValue = (found: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom(...found.map((t) => Date.parse(t)), ...INSTANTS),
      fc.constantFrom(0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8),
    )
    .map(([ms, how]) => {
      const text = iso(ms);
      switch (how) {
        case 1:
          return iso(ms + 1);
        case 2:
          return iso(ms - 1);
        case 3:
          return text.replace('Z', '0001Z'); // 0.1 µs after the millisecond
        case 4:
          return text.replace('Z', '999999Z'); // just before the next millisecond
        case 5:
          return text.slice(0, 10); // a bare date: 00:00:00Z
        case 6:
          return spell(ms, 2);
        case 7:
          return spell(ms, 3);
        case 8:
          return text.replace(/\.\d{3}Z$/, 'Z');
        default:
          return text;
      }
    })
    .chain((v) => oftenThis(v, ODD_DATES));

/** A rate bound: a stored amount, a neighbour as written, leading zeros, many digits. */
const decimalValue = (found: number[]): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...found, ...AMOUNTS), fc.constantFrom(0, 0, 0, 1, 2, 3, 4, 5, 6))
    .map(([n, how]) => {
      const text = String(n);
      const dotted = text.includes('.') ? text : `${text}.0`;
      switch (how) {
        case 1:
          return `${dotted}000000000000000001`; // just above, as written
        case 2:
          return n >= 1 ? `${Math.ceil(n) - 1}.99999999999999999999` : '0.29999999999999999999';
        case 3:
          return `00${text}`;
        case 4:
          return `${dotted}0000`;
        case 5:
          return String(Math.floor(n));
        case 6:
          return text === '0.30000000000000004' ? '0.3' : `${text}`;
        default:
          return text;
      }
    })
    .chain((v) => oftenThis(v, ODD_DECIMALS));

const taxonomyValue = (records: readonly Opportunity[], level: TaxonomyNode['level']) => {
  const found = fromRecords(records, (r) =>
    [r.job_domain, r.job_family, r.job_subfamily, r.job_class].filter(
      (id): id is string => id !== null && levelOf(id) === level,
    ),
  );
  const pool = idsAt(level);
  return fc.oneof(
    { weight: 16, arbitrary: fc.constantFrom(...(found.length ? found : pool)) },
    { weight: 4, arbitrary: fc.constantFrom(...pool) },
    // An id of another level, a label, an upper-case id: unknown ids (contract §6.7.5).
    {
      weight: 1,
      arbitrary: fc.constantFrom('data_engineering', 'data', 'Data', 'DATA_ENGINEERING', 'etl'),
    },
  );
};

const vocabValue = (values: readonly string[]) =>
  fc.oneof(
    { weight: 25, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constantFrom('Senior', 'C2C', 'true', 'un known') },
  );

/** A value generator per filter parameter of contract §6.1. */
function valueArbs(records: readonly Opportunity[]): Record<string, fc.Arbitrary<string>> {
  const published = fromRecords(records, (r) => (r.published_at ? [r.published_at] : []));
  const fresh = fromRecords(records, (r) => [r.published_at ?? r.first_seen]);
  const firstSeen = fromRecords(records, (r) => [r.first_seen]);
  const changed = fromRecords(records, (r) => [r.changed_at]);
  const amounts = fromRecords(records, (r) =>
    r.rate ? [r.rate.min, r.rate.max].filter((n): n is number => n !== null) : [],
  );
  const families = taxonomyValue(records, 'family');
  const subfamilies = taxonomyValue(records, 'subfamily');
  return {
    published_after: dateValue(published),
    published_before: dateValue(published),
    fresh_after: dateValue(fresh),
    first_seen_after: dateValue(firstSeen),
    changed_since: dateValue(changed),
    job_domain: padded(taxonomyValue(records, 'domain')),
    job_family: listOf(padded(families)),
    job_subfamily: listOf(padded(subfamilies)),
    job_class: listOf(padded(taxonomyValue(records, 'class'))),
    normalized_title: textValue(
      fromRecords(records, (r) => [r.normalized_title]),
      ['snowflake', 'ΣΥΜΒΟΥΛΟΣ', 'İŞ ANALİSTİ'],
    ),
    level: listOf(padded(vocabValue(LEVELS))),
    management_track: padded(vocabValue(TRACKS)),
    specializations: textValue(
      fromRecords(records, (r) => r.specializations),
      ['K8S', 'SQL', 'ſql', 'STRASSE', 'ΟΔΟΣ', 'οδος', 'db'],
    ),
    engagement_model: padded(vocabValue(ENGAGEMENTS)),
    commercial_eligibility: padded(vocabValue(ELIGIBILITY)),
    actionability: padded(vocabValue(ACTIONABILITY)),
    remote: padded(
      fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom('true', 'false') },
        { weight: 1, arbitrary: fc.constantFrom('TRUE', '1', 'yes') },
      ),
    ),
    country: padded(
      recased(
        fc.constantFrom(
          ...fromRecords(records, (r) => (r.location.country ? [r.location.country] : [])),
          ...COUNTRIES,
          '\u212Ae', // the Kelvin sign: a K (contract §6.11.6)
          'ſe', // a long s: no code (contract §6.11.6)
          'ZQ',
          'USA',
        ),
      ),
    ),
    city: textValue(
      fromRecords(records, (r) => (r.location.city ? [r.location.city] : [])),
      [
        'İSTANBUL',
        'ISTANBUL',
        'πατρασ',
        'Πάτρας',
        'Kisumu',
        '\uA7CFtown',
        'San',
        'Washington, D.C.',
        'STRAẞE',
        'straße',
        '\u10D2\u10D0\u10E0\u10E3',
        '\u{10428}\u{10428}',
        '\u{10400}\u{10400}',
      ],
    ),
    state: textValue(
      fromRecords(records, (r) =>
        [r.location.region, r.location.region_code].filter((v): v is string => !!v),
      ),
      ['ca', 'CALIFORNIA', 'k', '\uA7CF', 'İSTANBUL', 'δυτικη ελλαδασ', 'ßayern', 'ꮳꮃꭹ', 'austin'],
    ),
    region: textValue(
      fromRecords(records, (r) =>
        [r.location.region, r.location.region_code].filter((v): v is string => !!v),
      ),
      ['ca', 'on', 'ontario', 'K', 'qc', 'QUÉBEC'],
    ),
    rate_min: decimalValue(amounts),
    rate_max: decimalValue(amounts),
    currency: padded(recased(fc.constantFrom(...CURRENCIES, 'ßp', 'usd', 'XYZ'))),
    pay_basis: listOf(padded(vocabValue(PAY_BASES))),
    work_structure: listOf(padded(vocabValue(WORK_STRUCTURES))),
    source: textValue(
      fromRecords(records, (r) => r.sources.map((s) => s.source)),
      ['GREENHOUSE', 'Lever', 'ashby'],
    ),
    liveness_status: padded(vocabValue(LIVENESS)),
  };
}

/** Every filter parameter of contract §6.1 (read-fixture.ts lists the same 28). */
export const FILTERS = Object.keys(ORACLE);

/** 1 to `max` distinct filters, values mostly drawn from the records. */
export function queryArb(records: readonly Opportunity[], max = 4): fc.Arbitrary<Query> {
  const arbs = valueArbs(records);
  return fc
    .uniqueArray(fc.constantFrom(...FILTERS), { minLength: 1, maxLength: max })
    .chain((names) => {
      // job_subfamily pairs with job_family often (the narrowing rule), families chosen to fit.
      const shape: Record<string, fc.Arbitrary<string>> = {};
      for (const name of names) shape[name] = arbs[name] ?? fc.constant('');
      return fc.record(shape) as fc.Arbitrary<Query>;
    });
}

/** A query pairing job_family with job_subfamily: families that fit, sometimes one that does not. */
export function taxonomyQueryArb(records: readonly Opportunity[]): fc.Arbitrary<Query> {
  const arbs = valueArbs(records);
  return fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...SUBFAMILIES.filter((s) => FOCUS_NODES.includes(s))), {
        minLength: 1,
        maxLength: 2,
      }),
      fc.uniqueArray(fc.constantFrom(...FAMILIES), { maxLength: 2 }),
      fc.boolean(),
      fc.option(fc.constantFrom('job_domain', 'job_class', 'level', 'remote', 'rate_min')),
    )
    .chain(([subs, extraFamilies, fits, other]) => {
      const own = subs.map((s) => parentOf(s) ?? '');
      const families = [...new Set(fits ? [...own, ...extraFamilies] : extraFamilies)];
      const base: Query = { job_subfamily: subs.join(',') };
      if (families.length) base.job_family = families.join(',');
      if (!other) return fc.constant(base);
      return (arbs[other] ?? fc.constant('x')).map((v) => ({ ...base, [other]: v }));
    });
}

// ---------------------------------------------------------------------------------------------
// The oracle: the contract's answer to a query (contract §6.1-§6.12, §8.1).

export type Verdict =
  | { ok: true; ids: string[] }
  | { ok: false; errors: { status: number; code: string; parameter: string }[] };

type Kind =
  | 'date'
  | 'taxonomy'
  | 'taxonomy_list'
  | 'text'
  | 'enum'
  | 'enum_list'
  | 'boolean'
  | 'country'
  | 'decimal';

const KINDS: Record<
  string,
  { kind: Kind; values?: readonly string[]; level?: TaxonomyNode['level'] }
> = {
  published_after: { kind: 'date' },
  published_before: { kind: 'date' },
  fresh_after: { kind: 'date' },
  first_seen_after: { kind: 'date' },
  changed_since: { kind: 'date' },
  job_domain: { kind: 'taxonomy', level: 'domain' },
  job_family: { kind: 'taxonomy_list', level: 'family' },
  job_subfamily: { kind: 'taxonomy_list', level: 'subfamily' },
  job_class: { kind: 'taxonomy_list', level: 'class' },
  normalized_title: { kind: 'text' },
  level: { kind: 'enum_list', values: LEVELS },
  management_track: { kind: 'enum', values: TRACKS },
  specializations: { kind: 'text' },
  engagement_model: { kind: 'enum', values: ENGAGEMENTS },
  commercial_eligibility: { kind: 'enum', values: ELIGIBILITY },
  actionability: { kind: 'enum', values: ACTIONABILITY },
  remote: { kind: 'boolean' },
  country: { kind: 'country' },
  state: { kind: 'text' },
  region: { kind: 'text' },
  city: { kind: 'text' },
  rate_min: { kind: 'decimal' },
  rate_max: { kind: 'decimal' },
  currency: { kind: 'text' },
  pay_basis: { kind: 'enum_list', values: PAY_BASES },
  work_structure: { kind: 'enum_list', values: WORK_STRUCTURES },
  source: { kind: 'text' },
  liveness_status: { kind: 'enum', values: LIVENESS },
};

const ISO_COUNTRIES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR ' +
    'BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ ' +
    'EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW ' +
    'GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY ' +
    'KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV ' +
    'MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY ' +
    'QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG ' +
    'TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** A country value's code (contract §6.11.1, §6.11.6), or undefined when it names none. */
function countryCode(value: string): string | undefined {
  const folded = fold(value);
  if (!/^[a-z]{2}$/.test(folded)) return undefined;
  const code = folded.toUpperCase();
  return ISO_COUNTRIES.has(code) ? code : undefined;
}

const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2})))?$/;

/**
 * A date parameter (contract §6.5) as the whole millisecond that keeps the same records
 * (contract §6.12): a lower bound finer than a millisecond rounds up, an upper one down.
 */
function dateBound(value: string, upper: boolean): string | undefined {
  const m = DATE.exec(value);
  if (!m) return undefined;
  const n = (i: number) => Number(m[i] ?? '0');
  const [y, mo, d, h, mi, s] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30];
  const monthDays = [...days, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  if (mo < 1 || mo > 12 || d < 1 || d > monthDays) return undefined;
  if (h > 23 || mi > 59 || s > 59 || n(10) > 23 || n(11) > 59) return undefined;
  const fraction = (m[7] ?? '').padEnd(9, '0');
  const finer = !upper && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  const offset = (m[9] === '-' ? -1 : 1) * (n(10) * 60 + n(11)) * 60_000;
  // Not Date.UTC, which reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, Number(fraction.slice(0, 3)) + finer);
  return iso(date.getTime() - offset);
}

const codePoints = (text: string) => [...text].length;

/**
 * What the contract says a query answers over `records`: the ids in list order, or the errors
 * (any one of which the service may report: the contract does not order them).
 */
export function verdict(query: Query, records: readonly Opportunity[]): Verdict {
  const errors: { status: number; code: string; parameter: string }[] = [];
  const bad = (parameter: string, status: 400 | 422) =>
    errors.push({
      parameter,
      status,
      code: status === 400 ? 'invalid_filter' : 'validation_error',
    });
  const normalized: Query = {};
  for (const [name, raw] of Object.entries(query)) {
    const spec = KINDS[name];
    if (!spec) throw new Error(`verdict: no kind for ${name}`);
    const isList = spec.kind === 'enum_list' || spec.kind === 'taxonomy_list';
    // contract §6.3: a comma list where one value is allowed.
    if (!isList && raw.includes(',')) {
      bad(name, 400);
      continue;
    }
    const items = (isList ? raw.split(',') : [raw]).map((v) => v.trim());
    // contract §6.4: an empty value or item is a bad format, before any value check.
    if (items.some((v) => v === '')) {
      bad(name, 422);
      continue;
    }
    const value = items[0] ?? '';
    switch (spec.kind) {
      case 'date': {
        const bound = dateBound(value, name === 'published_before');
        if (bound === undefined) bad(name, 422);
        else normalized[name] = bound;
        break;
      }
      case 'boolean':
        if (value !== 'true' && value !== 'false') bad(name, 422);
        else normalized[name] = value;
        break;
      case 'decimal':
        if (!/^\d+(\.\d+)?$/.test(value) || (value.split('.')[0] ?? '').length > 308)
          bad(name, 422);
        else normalized[name] = value;
        break;
      case 'country': {
        const code = countryCode(value);
        if (!code) bad(name, 400);
        else normalized[name] = code;
        break;
      }
      case 'text':
        if (codePoints(value) > 300) bad(name, 422);
        else normalized[name] = value;
        break;
      case 'enum':
      case 'enum_list':
        if (items.some((v) => !spec.values?.includes(v))) bad(name, 400);
        else normalized[name] = [...new Set(items)].join(',');
        break;
      case 'taxonomy':
      case 'taxonomy_list':
        if (items.some((v) => levelOf(v) !== spec.level)) bad(name, 400);
        else normalized[name] = [...new Set(items)].join(',');
        break;
    }
  }
  if (errors.length) return { ok: false, errors };
  // contract §6.7.3: with families given, each subfamily's family must be among them.
  if (normalized.job_family && normalized.job_subfamily) {
    const families = normalized.job_family.split(',');
    if (normalized.job_subfamily.split(',').some((s) => !families.includes(parentOf(s) ?? ''))) {
      return {
        ok: false,
        errors: [{ status: 400, code: 'invalid_filter', parameter: 'job_subfamily' }],
      };
    }
  }
  return { ok: true, ids: expected(normalized, records).map((r) => r.id) };
}

// ---------------------------------------------------------------------------------------------
// Edges, every run: a fixed inventory that holds every place, specialization and amount of the
// pools, and the odd values of each parameter kind, so the rare ones are asked every time.

/** 40 records of the seed, the first ones given every place, specialization and amount. */
export function edgeRecords(seed: number): Opportunity[] {
  const [sample] = fc.sample(recordsArb(40, 40), { seed, numRuns: 1 });
  return (sample ?? []).map((r, i) => {
    const place = PLACES[i % PLACES.length] ?? PLACES[0];
    const amount = AMOUNTS[i % AMOUNTS.length] ?? 0;
    return {
      ...r,
      location: { ...r.location, ...place, text: place.city },
      specializations: [SPECIALIZATIONS[i % SPECIALIZATIONS.length] ?? 'dbt'],
      rate:
        i % 3 === 0
          ? null
          : {
              min: i % 3 === 1 ? amount : null,
              max: amount,
              currency: CURRENCIES[i % 4] ?? 'USD',
              unit: 'hour',
            },
    };
  });
}

/** One query per odd value, each parameter kind: dates, decimals, texts, codes, white space. */
export function edgeQueries(): Query[] {
  const out: Query[] = [];
  // Every odd date on the upper bound and on one lower bound; the other lower bounds share the
  // parser and rounding, so a few of them each.
  for (const name of ['published_before', 'fresh_after']) {
    for (const value of ODD_DATES) out.push({ [name]: value });
  }
  for (const name of ['published_after', 'first_seen_after', 'changed_since']) {
    for (const value of ODD_DATES.slice(0, 5)) out.push({ [name]: value });
  }
  for (const name of ['rate_min', 'rate_max']) {
    for (const value of [...ODD_DECIMALS, ...AMOUNTS.map(String), '0.3', '80.50000000000000001'])
      out.push({ [name]: value });
  }
  const texts: Record<string, string[]> = {
    city: [
      ...ODD_TEXTS,
      'İSTANBUL',
      'istanbul',
      'İstanbul',
      'πατρασ',
      'ΠΑΤΡΑΣ',
      'πατρας',
      'STRAẞE',
      'STRASSE',
      '\uA7CFtown',
      'Ꞗ\uA7CEtown',
      '\u{10428}\u{10428}',
      '\u10D2\u10D0\u10E0\u10E3',
      'montréal',
      'montre\u0301al',
      'MONTREAL',
      'kisumu',
      ' austin ',
    ],
    specializations: [...ODD_TEXTS, 'k8s', 'K8S', 'ſql', 'sql', 'SQL', 'οδοσ', 'ΟΔΟΣ', 'straße'],
    state: ['k', 'K', '\u212A', 'tx', 'Texas ', 'ẞAYERN', 'ßayern', 'ᏣᎳᎩ', 'ꮳꮃꭹ', 'austin\u0085'],
    region: ['on', 'QUÉBEC', 'que\u0301bec', '34', 'δυτικη ελλαδασ', 'ΔΥΤΙΚΉ ΕΛΛΆΔΑ'],
    country: ['\u212Ae', 'ſe', 'us', ' Us ', 'u s', 'GE', 'ge', 'uk', 'ZZ'],
    currency: ['ßp', 'usd', 'Eur', 'jpy ', 'XYZ', 'US'],
    normalized_title: ['İŞ ANALİSTİ', 'iş analisti', 'συμβουλοσ', 'ΣΥΜΒΟΥΛΟΣ', 'data engineer'],
    source: ['ASHBY.IO', 'a-b_c', 'A-B_C', 'ashby'],
  };
  for (const [name, values] of Object.entries(texts)) {
    for (const value of values) out.push({ [name]: value });
  }
  for (const pad of [...TRIMMED, '\u0085']) {
    out.push({ level: `${pad}senior${pad}` }, { remote: `${pad}true` });
    out.push({ work_structure: `ongoing_contract,${pad}fixed_project` });
  }
  out.push(
    { level: 'senior,' },
    { level: ',' },
    { level: 'senior,senior,staff' },
    { management_track: 'unknown,unknown' },
    { job_family: 'data', job_subfamily: 'data_engineering,frontend_engineering' },
    { job_family: 'data,software_engineering', job_subfamily: 'frontend_engineering' },
    { job_family: 'software_engineering', job_class: 'etl_developer' },
    { job_domain: 'software_data_ai', job_subfamily: 'devops_engineering' },
    { job_subfamily: 'data_engineering', job_class: 'snowflake_data_engineer,react_developer' },
    { remote: 'true', region: 'ca' },
    { remote: 'false', state: 'California', country: 'us' },
    { rate_min: '0', currency: 'usd', rate_max: '100' },
    { fresh_after: '2026-09-02', published_before: '2026-09-01' },
  );
  return out;
}
