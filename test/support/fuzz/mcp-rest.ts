import fc from 'fast-check';
import type { Opportunity } from '../../../src/domain/record';
import { FIXTURE, fixtureDay, fixtureId } from '../read-fixture';

// The two surfaces of one read, contract §21.5 and §21.6: a `search_opportunities` /
// `count_opportunities` argument object (typed: lists as arrays, booleans, numbers) and the REST
// query string that asks the same thing. Values are drawn from FIXTURE so that filters match
// something; a few bad arguments are drawn with them, for the refusals to be compared.

export type Args = Record<string, unknown>;

const uniq = <T>(values: readonly (T | null | undefined)[]): T[] =>
  [...new Set(values.filter((v): v is T => v !== null && v !== undefined))].sort();

const POOL = {
  level: uniq(FIXTURE.map((r) => r.level)),
  job_domain: uniq(FIXTURE.map((r) => r.job_domain)),
  job_family: uniq(FIXTURE.map((r) => r.job_family)),
  job_subfamily: uniq(FIXTURE.map((r) => r.job_subfamily)),
  job_class: uniq(FIXTURE.map((r) => r.job_class)),
  management_track: uniq(FIXTURE.map((r) => r.management_track)),
  engagement_model: uniq(FIXTURE.flatMap((r) => r.engagement_models)),
  commercial_eligibility: uniq(FIXTURE.map((r) => r.commercial_eligibility)),
  actionability: uniq(FIXTURE.map((r) => r.actionability)),
  liveness_status: uniq(FIXTURE.map((r) => r.liveness_status)),
  pay_basis: uniq(FIXTURE.map((r) => r.pay_basis)),
  work_structure: uniq(FIXTURE.map((r) => r.work_structure)),
  country: uniq(FIXTURE.map((r) => r.location.country)),
  city: uniq(FIXTURE.map((r) => r.location.city)),
  region: uniq(FIXTURE.map((r) => r.location.region_code ?? r.location.region)),
  currency: uniq(FIXTURE.map((r) => r.rate?.currency)),
  rate: uniq(FIXTURE.flatMap((r) => [r.rate?.min, r.rate?.max])),
  source: uniq(FIXTURE.flatMap((r) => r.sources.map((s) => s.source))),
  specializations: uniq(FIXTURE.flatMap((r) => r.specializations)),
  normalized_title: uniq(FIXTURE.map((r) => r.normalized_title)),
};

const oneOrTwo = (values: readonly string[]) =>
  fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 2 });
const day = fc.integer({ min: -2, max: 24 }).map((n) => fixtureDay(n).slice(0, 10));
const caseOf = (values: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...values), fc.constantFrom('same', 'lower', 'upper', 'padded'))
    .map(([v, how]) =>
      how === 'lower'
        ? v.toLowerCase()
        : how === 'upper'
          ? v.toUpperCase()
          : how === 'padded'
            ? ` ${v}\t`
            : v,
    );
const rate = fc.oneof(
  fc.constantFrom(...POOL.rate),
  fc.constantFrom(...POOL.rate).map(String),
  fc.integer({ min: 0, max: 200 }),
);

/** One valid filter argument of the tool schema (contract §6.1), its value typed as over MCP. */
const FILTERS: Record<string, fc.Arbitrary<unknown>> = {
  level: oneOrTwo(POOL.level),
  job_domain: fc.constantFrom(...POOL.job_domain),
  job_family: oneOrTwo(POOL.job_family),
  job_subfamily: oneOrTwo(POOL.job_subfamily),
  job_class: oneOrTwo(POOL.job_class),
  management_track: fc.constantFrom(...POOL.management_track),
  engagement_model: fc.constantFrom(...POOL.engagement_model),
  commercial_eligibility: fc.constantFrom(...POOL.commercial_eligibility),
  actionability: fc.constantFrom(...POOL.actionability),
  liveness_status: fc.constantFrom(...POOL.liveness_status),
  pay_basis: oneOrTwo(POOL.pay_basis),
  work_structure: oneOrTwo(POOL.work_structure),
  remote: fc.boolean(),
  country: caseOf(POOL.country),
  city: caseOf(POOL.city),
  region: caseOf(POOL.region),
  currency: caseOf(POOL.currency),
  rate_min: rate,
  rate_max: rate,
  source: fc.constantFrom(...POOL.source),
  specializations: caseOf(POOL.specializations),
  normalized_title: caseOf(POOL.normalized_title),
  published_after: day,
  published_before: day,
  fresh_after: day,
  first_seen_after: day,
  changed_since: day,
};

/** Arguments each surface refuses, with the same code and details (contract §21.6.1). */
const BAD: [string, unknown][] = [
  ['level', ['nope']],
  ['level', []],
  ['country', 'ZQ'],
  ['remote', 'maybe'],
  ['rate_min', -1],
  ['rate_min', '1e3'],
  ['published_after', 'yesterday'],
  ['published_after', '2026-02-30'],
  ['job_family', ['no_such_family']],
  ['limit', 0],
  ['limit', 101],
  ['limit', 2.5],
  ['cursor', 'not-a-cursor'],
  ['colour', 'red'],
  ['sort', 'oldest'],
  ['fields', ['title', 'salary']],
  ['q', ' '],
  ['management_track', ['ic', 'manager']],
];

/** Top-level record fields (contract §7.6) a `fields` argument may name. */
export const FIELD_NAMES = Object.keys(FIXTURE[0] as Opportunity).filter((k) => k !== 'id');

const Q = ['engineer', 'data', 'developer', 'react OR java', '"data engineer"', 'data -snowflake'];

export interface SearchCase {
  args: Args;
  /** A bad argument was added: both surfaces must refuse alike. */
  bad: boolean;
}

/** `arb` one time in `every`, else absent. */
const sometimes = <T>(arb: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 1, arbitrary: arb }, { weight: every - 1, arbitrary: fc.constant(undefined) });

export const searchArb: fc.Arbitrary<SearchCase> = fc
  .record({
    filters: fc.uniqueArray(fc.constantFrom(...Object.keys(FILTERS)), {
      minLength: 1,
      maxLength: 3,
    }),
    limit: sometimes(
      fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 100 })),
      4,
    ),
    fields: sometimes(
      fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { minLength: 1, maxLength: 4 }),
      2,
    ),
    q: sometimes(fc.constantFrom(...Q), 3),
    sort: sometimes(fc.constantFrom('freshness', 'relevance'), 2),
    unseen_only: sometimes(fc.constant(true), 6),
    max_new: sometimes(fc.integer({ min: 1, max: 8 }), 6),
    bad: sometimes(fc.constantFrom(...BAD), 5),
    nulls: fc.boolean(),
  })
  .chain(({ filters, bad, sort, q, nulls, ...rest }) =>
    fc.tuple(...filters.map((name) => FILTERS[name] as fc.Arbitrary<unknown>)).map((values) => {
      const args: Args = Object.fromEntries(filters.map((name, i) => [name, values[i]]));
      for (const [name, value] of Object.entries(rest)) if (value !== undefined) args[name] = value;
      if (q !== undefined) {
        args.q = q;
        if (sort !== undefined) args.sort = sort;
      }
      // contract §21.6.4: a null argument counts as absent (restQuery leaves it out).
      if (nulls) Object.assign(args, { city: args.city ?? null, cursor: null, max_new: null });
      if (bad !== undefined) args[bad[0]] = bad[1];
      return { args, bad: bad !== undefined };
    }),
  );

/** The REST query of MCP arguments: arrays as comma lists, booleans and numbers as text. */
export function restQuery(args: Args): string {
  return Object.entries(args)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => {
      const text = Array.isArray(v) ? v.map(String).join(',') : String(v);
      return `${encodeURIComponent(k)}=${encodeURIComponent(text)}`;
    })
    .join('&');
}

/** The count arguments of a search: its filters and `q`, nothing that only pages take. */
export function countArgs(args: Args): Args {
  const out: Args = { ...args };
  for (const name of ['limit', 'fields', 'cursor', 'sort', 'unseen_only', 'max_new']) {
    delete out[name];
  }
  return out;
}

/** Ids to ask `get_opportunity` and the detail endpoint for: known, unknown, malformed. */
export const detailIdArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...FIXTURE.map((r) => r.id)) },
  { weight: 1, arbitrary: fc.constant(fixtureId('no-such-record')) },
  { weight: 1, arbitrary: fc.constant('not-a-uuid') },
);
