import fc from 'fast-check';
import type { Opportunity, Rate } from '../../../src/domain/record';
import { histogramOracle, rateOracle, type RateEntry } from '../dashboard-fixture';
import { facetGroups } from '../facet-oracle';
import { FACET_DIMENSIONS } from '../../../src/domain/facets';
import {
  COMMERCIAL_ELIGIBILITY,
  LIVENESS_STATUSES,
  PAY_BASES,
  WORK_STRUCTURES,
} from '../../../src/domain/vocab';
import { makeRecord } from '../fixtures';
import { BY_ID, FOCUS_CLASSES, chainTo, idsAt } from './taxonomy';
import { expected, fixtureId, inListOrder, type Query } from '../read-fixture';

// Random small inventories and the count and keyword requests asked of them, with oracles written
// from the contract text (docs/contract.md §6, §7.2-§7.3, §8.1, §10.2-§10.6) and no src/ logic: the
// filters are read-fixture.ts's, the facets facet-oracle.ts's, the histogram and statistics
// dashboard-fixture.ts's, and `q` is computed here. Used by
// test/integration/aggregates-differential.property.test.ts.

// ---------------------------------------------------------------------------------------------
// Taxonomy

const CLASS_IDS = idsAt('class');
/** A few classes of two families, so that buckets gather several records and tie. */
const COMMON_CLASSES = FOCUS_CLASSES;

// ---------------------------------------------------------------------------------------------
// Words: titles, organizations and specializations are built from these, and `q` asks for them.

/**
 * Words whose analysis is unambiguous: no derivational suffix the engine's KStem could strip
 * (-er, -ing, -ion, -ive, -ity, -al...), none a synonym of §7.2.3, none (after folding) a word of
 * a taxonomy label unless listed in LABEL_WORDS. `forms` are spellings that analyze to the same
 * term: a regular plural, accents, decomposed accents, other scripts' capitals.
 */
export interface Word {
  base: string;
  forms: string[];
}
export const WORDS: Word[] = [
  { base: 'wizard', forms: ['wizard', 'Wizard', 'WIZARDS', 'wizards'] },
  { base: 'pilot', forms: ['pilot', 'Pilot', 'pilots', 'PILOTS'] },
  { base: 'falcon', forms: ['falcon', 'Falcon', 'falcons'] },
  { base: 'comet', forms: ['comet', 'Comet', 'comets', 'COMETS'] },
  { base: 'orchid', forms: ['orchid', 'Orchid', 'orchids'] },
  { base: 'lagoon', forms: ['lagoon', 'LAGOON', 'lagoons'] },
  { base: 'cafe', forms: ['café', 'Café', 'CAFÉ', 'cafe', 'Cafe\u0301', 'CAFE'] },
  { base: 'zoe', forms: ['Zoë', 'zoe', 'ZOË', 'Zoe\u0308'] },
  { base: 'nandu', forms: ['Ñandú', 'nandu', 'ÑANDÚ', 'ñandu'] },
  { base: 'developpeur', forms: ['Développeur', 'developpeur', 'DÉVELOPPEUR'] },
  {
    base: 'προγραμματιστησ',
    forms: [
      'Προγραμματιστής',
      'προγραμματιστης',
      'ΠΡΟΓΡΑΜΜΑΤΙΣΤΗΣ',
      'προγραμματιστής',
      'προγραμματιστη\u0301ς',
    ],
  },
  { base: 'разработчик', forms: ['Разработчик', 'РАЗРАБОТЧИК', 'разработчик'] },
  { base: 'елка', forms: ['ёлка', 'Ёлка', 'елка', 'ЕЛКА', 'е\u0308лка'] },
  // Synonyms of §7.2.3 (query side only: a record's `k8s` is found by `kubernetes` and back).
  { base: 'kubernetes', forms: ['kubernetes', 'Kubernetes', 'k8s', 'K8S'] },
  { base: 'typescript', forms: ['typescript', 'TypeScript', 'ts', 'TS'] },
  { base: 'postgresql', forms: ['postgresql', 'PostgreSQL', 'postgres', 'Postgres'] },
  { base: 'the', forms: ['the', 'The', 'THE'] },
  { base: 'a', forms: ['a', 'A'] },
  { base: 'of', forms: ['of', 'Of', 'OF'] },
  { base: 'and', forms: ['and', 'AND'] },
  { base: 'in', forms: ['in', 'In'] },
  { base: 'x', forms: ['x', 'X'] },
  { base: 'kotlin', forms: ['kotlin', 'Kotlin', 'KOTLIN', '\u212Aotlin'] },
  { base: 'snowflake', forms: ['snowflake', 'Snowflake'] },
  { base: 'python', forms: ['python', 'Python', 'PYTHON'] },
  { base: 'cobol', forms: ['cobol', 'COBOL'] },
  { base: 'tableau', forms: ['tableau', 'Tableau'] },
];
/**
 * Spellings the contract leaves open (a ligature, ß, a dotted capital I: none is a case or an
 * accent of §7.2.2): a `q` holding one is compared between the two worlds only, not with the
 * oracle. (`ı`, `ﬁ` and full-width letters, where the worlds part, are the separate cases of
 * aggregates-differential.property.test.ts.)
 */
export const UNDECIDED: Word[] = [
  { base: 'strasse', forms: ['Straße', 'strasse', 'STRASSE', 'straße'] },
  { base: 'istanbul', forms: ['İstanbul', 'istanbul', 'ISTANBUL'] },
  { base: 'oeuvre', forms: ['œuvre', 'oeuvre', 'Œuvre', 'OEUVRE'] },
];

/** Words no record holds: near misses (a prefix, a longer word) and plain absences. */
export const ABSENT = ['wiz', 'pilo', 'orchidz', 'lagoo', 'zz', 'q', 'falconry'];

const ORG_NAMES = ['Zephyr Wizard', 'Nimbus Comet', 'Orchid & Lagoon', 'Café Falcon', 'The Pilot'];

/** Folds as the analyzer does for these words: accents dropped (any script), lower case, ς = σ. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ς/g, 'σ');
}

const STEMS = new Map<string, string>();
for (const w of WORDS) for (const f of w.forms) STEMS.set(fold(f), w.base);

/** The terms of a text: words split at anything not a letter or digit, possessives dropped. */
export function terms(text: string): string[] {
  return fold(text.replace(/['’]s\b/giu, ''))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .map((t) => STEMS.get(t) ?? t);
}

// ---------------------------------------------------------------------------------------------
// Records

const LEVELS = ['senior', 'mid', 'junior', 'lead', 'unknown'] as const;
const WORK = WORK_STRUCTURES;
const PAY = PAY_BASES;
const LIVENESS = LIVENESS_STATUSES;
const ELIGIBILITY = COMMERCIAL_ELIGIBILITY;
const ACTIONABILITY = ['actionable', 'not_actionable', 'unknown'] as const;
const COUNTRIES = ['US', 'GB', 'CA', 'DE', null] as const;
const SOURCE_IDS = ['greenhouse', 'lever', 'a-b_c.d', 'workday'] as const;
const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
const UNITS = ['hour', 'day', 'month', 'year', 'project'] as const;
const AMOUNTS = [
  0, 0.1, 0.2, 1, 50, 80, 80.5, 99.99, 100, 100.25, 120, 600, 150000, 1e6, 9007199254740990,
  9007199254740991,
] as const;

/** Instants at UTC bucket edges (day, Monday, month, year) and a few plain ones. */
export const EDGES = [
  '2026-03-01T23:59:59.999Z', // a Sunday's last instant
  '2026-03-02T00:00:00.000Z', // Monday 00:00
  '2026-03-31T23:59:59.999Z',
  '2026-04-01T00:00:00.000Z',
  '2026-02-28T12:00:00.000Z',
  '2025-12-31T23:59:59.999Z',
  '2026-01-01T00:00:00.000Z',
  '2026-06-15T08:30:00.000Z',
  '2026-06-14T23:59:59.999Z',
  '2026-06-15T00:00:00.000Z',
  '2026-03-01T23:30:00.000-01:00', // Monday 00:30 in UTC
  '2026-04-01T00:30:00.000+01:00', // March 31st in UTC
  '2026-10-30T00:00:00.000Z',
  '2026-10-30T23:59:59.999Z',
  // 400 days before 2026-10-30 (buckets 2025-09-26 to 2026-10-30: exactly 400), and the next day
  '2025-09-26T00:00:00.000Z',
  '2025-09-25T23:59:59.999Z',
] as const;
/** The first instant the inventory's days may reach back to, and the last. */
const FROM = Date.parse('2025-11-01T00:00:00.000Z');
const TO = Date.parse('2026-10-30T23:59:59.999Z');
/** Far back: with it a span of days is more than 400 buckets. */
const FAR = '2024-06-01T00:00:00.000Z';

const instant: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGES) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: FROM, max: TO }).map((t) => new Date(t).toISOString()),
  },
  { weight: 1, arbitrary: fc.integer({ min: FROM, max: TO }).map((t) => dayOf(t)) },
);
const dayOf = (t: number) => `${new Date(t).toISOString().slice(0, 10)}T00:00:00.000Z`;

const rate: fc.Arbitrary<Rate | null> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        a: fc.constantFrom(...AMOUNTS),
        b: fc.constantFrom(...AMOUNTS),
        shape: fc.constantFrom('both', 'min', 'max', 'same'),
        currency: fc.constantFrom(...CURRENCIES),
        unit: fc.constantFrom(...UNITS),
      })
      .map(({ a, b, shape, currency, unit }) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        if (shape === 'min') return { min: lo, max: null, currency, unit };
        if (shape === 'max') return { min: null, max: hi, currency, unit };
        if (shape === 'same') return { min: lo, max: lo, currency, unit };
        return { min: lo, max: hi, currency, unit };
      }),
  },
);

const word = fc
  .oneof({ weight: 8, arbitrary: fc.constantFrom(...WORDS) }, fc.constantFrom(...UNDECIDED))
  .chain((w) => fc.constantFrom(...w.forms));
const SEPARATORS = [' ', ' ', ' ', ' - ', ', ', '/', ' (', ') ', "'s "] as const;
const phrase = (min: number, max: number) =>
  fc
    .array(fc.tuple(word, fc.constantFrom(...SEPARATORS)), { minLength: min, maxLength: max })
    .map((parts) =>
      parts
        .map(([w, s], i) => (i === parts.length - 1 ? w : w + s))
        .join('')
        .trim(),
    );

/** What varies in a record; `toRecord` makes the record of it. */
export interface RecordSpec {
  classId: string;
  depth: number;
  title: string;
  normalizedTitle: string;
  specializations: string[];
  employer: string | null;
  intermediary: string | null;
  client: string | null;
  level: Opportunity['level'];
  engagement: Opportunity['engagement_models'];
  work: Opportunity['work_structure'];
  pay: Opportunity['pay_basis'];
  liveness: Opportunity['liveness_status'];
  eligibility: Opportunity['commercial_eligibility'];
  actionability: Opportunity['actionability'];
  country: string | null;
  remote: boolean | null;
  sources: string[];
  rate: Rate | null;
  published: string | null;
  firstSeen: string;
}

const spec: fc.Arbitrary<RecordSpec> = fc.record({
  classId: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...COMMON_CLASSES) },
    { weight: 1, arbitrary: fc.constantFrom(...CLASS_IDS) },
  ),
  depth: fc.constantFrom(0, 1, 2, 3, 4, 4, 4),
  title: phrase(1, 4),
  normalizedTitle: phrase(1, 3).map((t) => t.toLowerCase()),
  specializations: fc.array(phrase(1, 2), { maxLength: 2 }),
  employer: fc.option(fc.constantFrom(...ORG_NAMES), { nil: null }),
  intermediary: fc.option(fc.constantFrom(...ORG_NAMES), { nil: null, freq: 3 }),
  client: fc.option(phrase(1, 2), { nil: null, freq: 3 }),
  level: fc.constantFrom(...LEVELS),
  engagement: fc.subarray(['w2_contract', '1099', 'c2c'] as Opportunity['engagement_models']),
  work: fc.constantFrom(...WORK),
  pay: fc.constantFrom(...PAY),
  liveness: fc.constantFrom(...LIVENESS),
  eligibility: fc.constantFrom(...ELIGIBILITY),
  actionability: fc.constantFrom(...ACTIONABILITY),
  country: fc.constantFrom(...COUNTRIES),
  remote: fc.constantFrom(true, false, null),
  // A source may be named twice (two observations): the record is still one in its bucket.
  sources: fc.array(fc.constantFrom(...SOURCE_IDS), { maxLength: 3 }),
  rate,
  published: fc.oneof(
    { weight: 6, arbitrary: instant },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant(FAR) },
  ),
  firstSeen: instant,
});

export const specs = (min = 15, max = 50): fc.Arbitrary<RecordSpec[]> =>
  fc.array(spec, { minLength: min, maxLength: max });

export function toRecord(s: RecordSpec, idSeed: string): Opportunity {
  const chain = chainTo(s.classId).map((id, i) => (i < s.depth ? id : null));
  const [job_domain = null, job_family = null, job_subfamily = null, job_class = null] = chain;
  const organizations: Opportunity['organizations'] = [];
  if (s.employer) organizations.push({ name: s.employer, role: 'employer' });
  // The intermediary is searched as a field of its own too (§7.2.1): not always an organization.
  if (s.intermediary && s.depth % 2 === 0) {
    organizations.push({ name: s.intermediary, role: 'intermediary' });
  }
  if (s.client) organizations.push({ name: s.client, role: 'client' });
  return makeRecord({
    id: fixtureId(idSeed),
    title: s.title,
    normalized_title: s.normalizedTitle,
    employer: s.employer,
    intermediary: s.intermediary,
    organizations,
    specializations: s.specializations,
    job_domain,
    job_family,
    job_subfamily,
    job_class,
    level: s.level,
    engagement_models: s.engagement,
    work_structure: s.work,
    pay_basis: s.pay,
    liveness_status: s.liveness,
    commercial_eligibility: s.eligibility,
    actionability: s.actionability,
    location: {
      text: null,
      city: null,
      region: null,
      region_code: null,
      country: s.country,
      remote: s.remote,
      remote_scope: 'unknown',
    },
    sources: s.sources.map((source, i) => ({
      source,
      external_id: String(i),
      url: `https://boards.example.com/${source}/${i}`,
      observed_at: s.firstSeen,
    })),
    rate: s.rate,
    published_at: s.published,
    published_precision: s.published === null ? 'unknown' : 'second',
    first_seen: s.firstSeen,
    changed_at: s.firstSeen,
    last_verified_live_at: null,
    evidence: [],
  });
}

// ---------------------------------------------------------------------------------------------
// Keyword queries: a tree, written out as `q` text (§7.3), and its meaning.

export type Term =
  | { kind: 'word'; text: string }
  | { kind: 'phrase'; words: string[] }
  | { kind: 'not'; term: { kind: 'word'; text: string } | { kind: 'phrase'; words: string[] } }
  | { kind: 'or'; left: Alt; right: Alt };
type Alt = { kind: 'word'; text: string } | { kind: 'phrase'; words: string[] };

function altText(t: Alt): string {
  return t.kind === 'word' ? t.text : `"${t.words.join(' ')}"`;
}
export function qText(ts: Term[]): string {
  return ts
    .map((t) =>
      t.kind === 'not'
        ? `-${altText(t.term)}`
        : t.kind === 'or'
          ? `${altText(t.left)} OR ${altText(t.right)}`
          : altText(t),
    )
    .join(' ');
}

/** The searched values of a record (§7.2.1), each analyzed on its own. */
function searched(r: Opportunity): string[][] {
  const labels = [r.job_family, r.job_subfamily, r.job_class]
    .map((id) => (id ? BY_ID.get(id)?.label : undefined))
    .filter((l): l is string => !!l);
  return [
    r.title,
    r.normalized_title,
    ...r.specializations,
    r.employer ?? '',
    r.intermediary ?? '',
    ...r.organizations.map((o) => o.name),
    ...labels,
  ].map(terms);
}

function holds(values: string[][], t: Alt): boolean {
  if (t.kind === 'word') {
    const [term] = terms(t.text);
    return term !== undefined && values.some((v) => v.includes(term));
  }
  const want = t.words.flatMap(terms);
  if (want.length === 0) return true;
  return values.some((v) => v.some((_, i) => want.every((w, j) => v[i + j] === w)));
}

/** Whether a record matches `q` (§7.3): positive terms ANDed, exclusions removed. */
export function matchesQ(r: Opportunity, ts: Term[]): boolean {
  const values = searched(r);
  return ts.every((t) => {
    if (t.kind === 'not') return !holds(values, t.term);
    if (t.kind === 'or') return holds(values, t.left) || holds(values, t.right);
    return holds(values, t);
  });
}

/** A term drawn from the records' own words (in another spelling) or a word no record holds. */
function termOf(records: readonly Opportunity[]): fc.Arbitrary<Alt> {
  const own = records.flatMap((r) => [r.title, ...r.specializations, r.employer ?? '']);
  const respell = (t: string) => {
    const [base] = terms(t);
    const w = WORDS.find((x) => x.base === base);
    return w ? fc.constantFrom(...w.forms) : fc.constant(t);
  };
  const fromRecord = fc.constantFrom(...own).chain((text) => {
    const words = text.split(/[^\p{L}\p{N}\p{M}]+/u).filter((x) => x.length > 0);
    if (words.length === 0) return fc.constant<Alt>({ kind: 'word', text: 'wizard' });
    return fc.nat(words.length - 1).chain((i) => {
      const one = respell(words[i] as string).map((text): Alt => ({ kind: 'word', text }));
      const next = words[i + 1];
      if (next === undefined) return one;
      const two = fc
        .tuple(respell(words[i] as string), respell(next))
        .map((ws): Alt => ({ kind: 'phrase', words: ws }));
      const reversed = fc
        .tuple(respell(next), respell(words[i] as string))
        .map((ws): Alt => ({ kind: 'phrase', words: ws }));
      return fc.oneof({ weight: 3, arbitrary: one }, two, reversed);
    });
  });
  // A phrase across two values of one record (the last word of one, the first of the next):
  // adjacent in no value, so no match (§7.3.2).
  const wordsOf = (t: string) => t.split(/[^\p{L}\p{N}\p{M}]+/u).filter((x) => x.length > 0);
  const seams = records.flatMap((r) => {
    const values = [
      r.title,
      r.normalized_title,
      ...r.specializations,
      ...r.organizations.map((o) => o.name),
    ].map(wordsOf);
    return values.slice(1).flatMap((v, i) => {
      const last = values[i]?.[values[i].length - 1];
      return last && v[0] ? [[last, v[0]]] : [];
    });
  });
  const across =
    seams.length > 0
      ? fc.constantFrom(...seams).map((words): Alt => ({ kind: 'phrase', words }))
      : fc.constant<Alt>({ kind: 'word', text: 'wizard' });
  return fc.oneof(
    { weight: 6, arbitrary: fromRecord },
    { weight: 1, arbitrary: across },
    { weight: 2, arbitrary: word.map((text): Alt => ({ kind: 'word', text })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...ABSENT).map((text): Alt => ({ kind: 'word', text })),
    },
  );
}

export function qTerms(records: readonly Opportunity[]): fc.Arbitrary<Term[]> {
  const alt = termOf(records);
  const term: fc.Arbitrary<Term> = fc.oneof(
    { weight: 5, arbitrary: alt },
    { weight: 2, arbitrary: alt.map((t): Term => ({ kind: 'not', term: t })) },
    {
      weight: 2,
      arbitrary: fc.tuple(alt, alt).map(([left, right]): Term => ({ kind: 'or', left, right })),
    },
  );
  return fc.array(term, { minLength: 1, maxLength: 3 });
}

const TOUCHY = new Set(UNDECIDED.flatMap((w) => [w.base, ...w.forms.flatMap(terms)]));

/** Whether the oracle can tell what `q` matches: no word of it is one the contract leaves open. */
export function qDecided(ts: Term[] | null): boolean {
  if (!ts) return true;
  const texts = ts.flatMap((t) => {
    const alts = t.kind === 'not' ? [t.term] : t.kind === 'or' ? [t.left, t.right] : [t];
    return alts.flatMap((a) => (a.kind === 'word' ? [a.text] : a.words));
  });
  return !texts.flatMap(terms).some((x) => TOUCHY.has(x));
}

// ---------------------------------------------------------------------------------------------
// Count requests (§5.4, §10) and their oracle.

export const DIMS = FACET_DIMENSIONS;

export interface CountRequest {
  filters: Query;
  q: Term[] | null;
  groupBy: string[];
  groupLimit: number | null;
  histogram: { field: 'published' | 'first_seen'; interval: 'day' | 'week' | 'month' } | null;
  stats: boolean;
}

const upperOf = (r: Opportunity) => (r.rate ? (r.rate.max ?? r.rate.min) : null);
const lowerOf = (r: Opportunity) => (r.rate ? (r.rate.min ?? r.rate.max) : null);

/** 0 to 2 ordinary filters (§6.1) whose values come from the records, at their edges. */
export function filtersOf(records: readonly Opportunity[]): fc.Arbitrary<Query> {
  const pick = <T>(f: (r: Opportunity) => T[]) => {
    const all = records.flatMap(f);
    return all.length > 0 ? fc.constantFrom(...all) : fc.constant(undefined);
  };
  const shifted = (t: string) =>
    new Date(Date.parse(t) + 3_600_000).toISOString().replace('Z', '+01:00');
  const times = records.flatMap((r) => [
    r.published_at ?? r.first_seen,
    r.first_seen,
    shifted(r.first_seen),
  ]);
  const one: fc.Arbitrary<[string, string] | null> = fc.oneof(
    fc
      .subarray([...LEVELS], { minLength: 1, maxLength: 2 })
      .map((v): [string, string] => ['level', v.join(',')]),
    pick((r) => [r.location.country]).map((v) =>
      v ? (['country', v.toLowerCase()] as [string, string]) : null,
    ),
    fc.boolean().map((v): [string, string] => ['remote', String(v)]),
    fc
      .subarray([...PAY], { minLength: 1, maxLength: 2 })
      .map((v): [string, string] => ['pay_basis', v.join(',')]),
    fc.constantFrom(...WORK).map((v): [string, string] => ['work_structure', v]),
    fc
      .constantFrom('w2_contract', '1099', 'c2c')
      .map((v): [string, string] => ['engagement_model', v]),
    fc.constantFrom('usd', 'EUR', 'Gbp').map((v): [string, string] => ['currency', v]),
    pick((r) => [upperOf(r), lowerOf(r), 100]).map((v) =>
      v === null || v === undefined ? null : (['rate_min', String(v)] as [string, string]),
    ),
    pick((r) => [upperOf(r), lowerOf(r), 100]).map((v) =>
      v === null || v === undefined ? null : (['rate_max', String(v)] as [string, string]),
    ),
    fc.constantFrom(...times, ...EDGES).map((v): [string, string] => ['fresh_after', v]),
    fc.constantFrom(...times, ...EDGES).map((v): [string, string] => ['published_after', v]),
    fc.constantFrom(...times, ...EDGES).map((v): [string, string] => ['published_before', v]),
    fc.constantFrom(...times, ...EDGES).map((v): [string, string] => ['first_seen_after', v]),
    pick((r) => [r.job_family]).map((v) => (v ? (['job_family', v] as [string, string]) : null)),
    pick((r) => [r.job_domain]).map((v) => (v ? (['job_domain', v] as [string, string]) : null)),
    pick((r) => [r.job_class]).map((v) => (v ? (['job_class', v] as [string, string]) : null)),
    fc
      .constantFrom(...SOURCE_IDS, 'Greenhouse', 'A-B_C.D')
      .map((v): [string, string] => ['source', v]),
    fc.constantFrom(...LIVENESS).map((v): [string, string] => ['liveness_status', v]),
    fc.constantFrom(...ELIGIBILITY).map((v): [string, string] => ['commercial_eligibility', v]),
    fc.constantFrom(...ACTIONABILITY).map((v): [string, string] => ['actionability', v]),
  );
  return fc.array(one, { maxLength: 2 }).map((pairs) => {
    const q: Query = {};
    for (const p of pairs) if (p && q[p[0]] === undefined) q[p[0]] = p[1];
    return q;
  });
}

export function countRequest(records: readonly Opportunity[]): fc.Arbitrary<CountRequest> {
  return fc
    .record({
      filters: filtersOf(records),
      q: fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: qTerms(records) },
      ),
      groupBy: fc.oneof(
        { weight: 1, arbitrary: fc.constant<string[]>([]) },
        {
          weight: 4,
          arbitrary: fc
            .subarray([...DIMS], { minLength: 1, maxLength: 2 })
            .chain((dims) => fc.shuffledSubarray(dims, { minLength: dims.length })),
        },
      ),
      groupLimit: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
      histogram: fc.option(
        fc.record({
          field: fc.constantFrom('published' as const, 'first_seen' as const),
          interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        }),
        { nil: null, freq: 2 },
      ),
      stats: fc.boolean(),
    })
    .map((r) => ({ ...r, groupLimit: r.groupBy.length > 0 ? r.groupLimit : null }));
}

/** The query of a count request, as parameters. */
export function countQuery(req: CountRequest): Query {
  const p: Query = { ...req.filters };
  if (req.q) p.q = qText(req.q);
  if (req.groupBy.length > 0) p.group_by = req.groupBy.join(',');
  if (req.groupLimit !== null) p.group_limit = String(req.groupLimit);
  if (req.histogram) {
    p.histogram = req.histogram.field;
    p.interval = req.histogram.interval;
  }
  if (req.stats) p.stats = 'rate';
  return p;
}

/** The figures a count answer should carry (without meta), or the 400 it should be. */
export type CountExpectation =
  { status: 200; body: Record<string, unknown> } | { status: 400; parameter: string };

export function countOracle(
  records: readonly Opportunity[],
  req: CountRequest,
  minAggregateCount = 1,
): CountExpectation {
  const q = req.q;
  const matching = expected(req.filters, records).filter((r) => !q || matchesQ(r, q));
  const body: Record<string, unknown> = { count: matching.length };
  if (req.groupBy.length > 0) {
    Object.assign(body, facetGroups(matching, req.groupBy, req.groupLimit ?? 10));
  }
  if (req.histogram) {
    const h = histogramOracle(matching, req.histogram.field, req.histogram.interval);
    if (h.length > 400) return { status: 400, parameter: 'interval' };
    body.histogram = h;
  }
  if (req.stats) body.rate_stats = rateOracle(matching, minAggregateCount);
  return { status: 200, body };
}

/** The ids a `q` list should return, in list order (§8.1). */
export function qOracle(records: readonly Opportunity[], ts: Term[]): string[] {
  return inListOrder(records.filter((r) => matchesQ(r, ts))).map((r) => r.id);
}

/**
 * A count answer's figures as compared: meta left out, statistics' quartiles to 12 significant
 * digits (R-7 interpolation may round in another order).
 */
export function figures(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  delete out.meta;
  if (Array.isArray(out.rate_stats)) {
    out.rate_stats = (out.rate_stats as RateEntry[]).map((e) => ({
      ...e,
      p25: round(e.p25),
      median: round(e.median),
      p75: round(e.p75),
    }));
  }
  return out;
}
const round = (x: number | null) => (x === null ? null : Number(x.toPrecision(12)));
