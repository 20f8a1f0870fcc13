import { useWorld, type StartFixtureWorld } from '../support/worlds';
import {
  CONTRACT_FILTERS,
  FIXTURE,
  expected,
  fixtureDay,
  idsOf,
  inListOrder,
  qs,
  type Query,
} from '../support/read-fixture';
import { get, listAll } from '../support/read-http';

// Every filter of contract §6.1 against the oracle of §6, over real HTTP: the list's id set
// and order (all pages at limit=100) and the count must both equal the oracle's answer.

/** Every filter against the oracle, in one world. */
export function readFilterBehaviour(start: StartFixtureWorld): void {
  const world = useWorld(start);

  const H = 3_600_000;
  /** [label, query, may the oracle's answer be empty] */
  type Case = [string, Query, boolean?];

  const CASES: Record<string, Case[]> = {
    published_after: [
      ['a record exactly on the bound', { published_after: fixtureDay(7) }],
      ['bare date = 00:00:00Z', { published_after: '2026-09-08' }],
      ['offset form of the same instant', { published_after: '2026-09-08T02:00:00+02:00' }],
      ['one millisecond later excludes it', { published_after: fixtureDay(7, 1) }],
      ['an instant written with an offset in the record', { published_after: '2026-09-20' }],
    ],
    published_before: [
      ['a record exactly on the bound', { published_before: fixtureDay(3) }],
      ['bare date', { published_before: '2026-09-04' }],
      ['one millisecond earlier excludes it', { published_before: fixtureDay(3, -1) }],
      [
        'window with published_after',
        { published_after: '2026-09-05', published_before: '2026-09-09' },
      ],
    ],
    fresh_after: [
      ['falls back to first_seen, bound inclusive', { fresh_after: fixtureDay(9) }],
      ['bare date', { fresh_after: '2026-09-12' }],
      ['the 2026-09-20 tie (published, offset, fallback)', { fresh_after: '2026-09-20T00:00:00Z' }],
    ],
    job_domain: [
      ['includes every descendant', { job_domain: 'software_data_ai' }],
      ['another domain', { job_domain: 'infrastructure_security_hardware' }],
    ],
    job_family: [
      ['includes subfamilies and classes', { job_family: 'data' }],
      ['list (OR)', { job_family: 'data,software_engineering' }],
      ['another domain', { job_family: 'cloud_and_devops' }],
      [
        'subfamily narrows its own family only',
        { job_family: 'data,software_engineering', job_subfamily: 'data_engineering' },
      ],
      [
        'two subfamilies of one family',
        { job_family: 'data', job_subfamily: 'data_engineering,data_science' },
      ],
      [
        'both families narrowed',
        {
          job_family: 'software_engineering,data',
          job_subfamily: 'frontend_engineering,data_science',
        },
      ],
      ['AND with job_class', { job_family: 'data', job_class: 'etl_developer' }],
      [
        'AND with a class elsewhere',
        { job_family: 'software_engineering', job_class: 'etl_developer' },
        true,
      ],
    ],
    job_subfamily: [
      ['alone', { job_subfamily: 'data_engineering' }],
      ['list (OR)', { job_subfamily: 'data_engineering,frontend_engineering' }],
      ['backend', { job_subfamily: 'backend_engineering' }],
    ],
    job_class: [
      ['exact', { job_class: 'snowflake_data_engineer' }],
      ['list (OR)', { job_class: 'etl_developer,react_developer' }],
      ['another', { job_class: 'python_backend_developer' }],
      [
        'AND with a domain',
        { job_domain: 'infrastructure_security_hardware', job_class: 'devops_engineer' },
      ],
    ],
    normalized_title: [
      ['case-insensitive exact', { normalized_title: 'snowflake data engineer' }],
      ['upper case', { normalized_title: 'SNOWFLAKE DATA ENGINEER' }],
      ['stored in mixed case', { normalized_title: 'etl developer' }],
      ['no partial match', { normalized_title: 'snowflake' }, true],
    ],
    level: [
      ['one', { level: 'senior' }],
      ['list (OR)', { level: 'senior,staff' }],
      ['unknown is a value', { level: 'unknown' }],
    ],
    management_track: [
      ['people_manager', { management_track: 'people_manager' }],
      ['unknown', { management_track: 'unknown' }],
    ],
    specializations: [
      ['case-insensitive', { specializations: 'dbt' }],
      ['upper case query', { specializations: 'REACT' }],
      ['with a space', { specializations: 'data vault' }],
      ['no partial match', { specializations: 'db' }, true],
      ['a dotted capital I, as stored', { specializations: 'İş Analizi' }],
    ],
    engagement_model: [
      ['c2c is strict (w2_contract is no evidence)', { engagement_model: 'c2c' }],
      ['w2_contract', { engagement_model: 'w2_contract' }],
      ['1099', { engagement_model: '1099' }],
    ],
    commercial_eligibility: [
      ['eligible never matches unknown', { commercial_eligibility: 'eligible' }],
      ['unknown', { commercial_eligibility: 'unknown' }],
      ['ineligible', { commercial_eligibility: 'ineligible' }],
      ['research_required', { commercial_eligibility: 'research_required' }],
    ],
    actionability: [
      ['actionable', { actionability: 'actionable' }],
      ['not_actionable', { actionability: 'not_actionable' }],
      ['unknown', { actionability: 'unknown' }],
    ],
    remote: [
      ['true', { remote: 'true' }],
      ['false is explicit false, never null', { remote: 'false' }],
    ],
    country: [
      ['upper case', { country: 'US' }],
      ['lower case', { country: 'us' }],
      ['Canada', { country: 'ca' }],
      ['GB', { country: 'GB' }],
    ],
    city: [
      ['case-insensitive exact', { city: 'austin' }],
      ['stored lower case', { city: 'Los Angeles' }],
      ['upper case query', { city: 'SAN FRANCISCO' }],
      ['no partial match', { city: 'San' }, true],
      ['a dotted capital I, as stored', { city: 'İstanbul' }],
      ['upper case with a dotted capital I', { city: 'İSTANBUL' }],
      ['a word-final capital sigma, as stored', { city: 'ΠΑΤΡΑΣ' }],
    ],
    state: [
      ['code', { state: 'CA' }],
      ['name, lower case', { state: 'california' }],
      ['code, lower case', { state: 'tx' }],
      ['name, upper case', { state: 'TEXAS' }],
      ['Ontario by code', { state: 'on' }],
      ['non-US code', { state: 'ENG' }],
    ],
    region: [
      ['code', { region: 'ca' }],
      ['name', { region: 'California' }],
      ['Ontario by name', { region: 'Ontario' }],
      ['England by code', { region: 'eng' }],
      ['a dotted capital I', { region: 'İstanbul' }],
      ['a word-final capital sigma', { region: 'ΔΥΤΙΚΗ ΕΛΛΑΔΑΣ' }],
      ['AND with state', { state: 'CA', region: 'california' }],
    ],
    rate_min: [
      ['upper bound (max, else min), inclusive', { rate_min: '100' }],
      ['decimal', { rate_min: '80.5' }],
      ['0 still excludes null rates', { rate_min: '0' }],
      ['own currency and unit', { rate_min: '700' }],
      ['min-only rate', { rate_min: '90' }],
      // More digits than a double holds: read as 100 it matched a rate of exactly 100.
      ['just above a bound, as written', { rate_min: '100.0000000000000001' }],
      ['just below a bound, as written', { rate_min: '80.49999999999999999' }],
    ],
    rate_max: [
      ['lower bound (min, else max), inclusive', { rate_max: '80' }],
      ['decimal', { rate_max: '80.5' }],
      ['max-only rate', { rate_max: '70' }],
      ['large', { rate_max: '1000' }],
      ['just below a bound, as written', { rate_max: '80.49999999999999999' }],
      ['just above a bound, as written', { rate_max: '80.50000000000000001' }],
    ],
    currency: [
      ['USD', { currency: 'USD' }],
      ['lower case', { currency: 'eur' }],
    ],
    pay_basis: [
      ['one', { pay_basis: 'hourly' }],
      ['list (OR)', { pay_basis: 'daily,monthly' }],
      ['unknown', { pay_basis: 'unknown' }],
    ],
    work_structure: [
      ['ongoing_contract also matches contract_duration', { work_structure: 'ongoing_contract' }],
      ['contract_duration alone', { work_structure: 'contract_duration' }],
      ['list (OR)', { work_structure: 'fixed_project,freelance_ad_hoc' }],
      ['unknown', { work_structure: 'unknown' }],
    ],
    source: [
      ['greenhouse', { source: 'greenhouse' }],
      ['case-insensitive', { source: 'LEVER' }],
    ],
    liveness_status: [
      ['live', { liveness_status: 'live' }],
      ['dead', { liveness_status: 'dead' }],
      ['unknown', { liveness_status: 'unknown' }],
      ['blocked', { liveness_status: 'blocked' }],
    ],
    first_seen_after: [
      ['a record exactly on the bound', { first_seen_after: fixtureDay(9, 6 * H) }],
      ['bare date', { first_seen_after: '2026-09-11' }],
    ],
    changed_since: [
      ['a record exactly on the bound', { changed_since: fixtureDay(14, 6 * H) }],
      ['bare date', { changed_since: '2026-09-15' }],
    ],
    combinations: [
      ['level + remote + country', { level: 'senior,staff', remote: 'true', country: 'US' }],
      [
        'c2c + eligible + rate + currency',
        {
          engagement_model: 'c2c',
          commercial_eligibility: 'eligible',
          rate_min: '90',
          currency: 'USD',
        },
      ],
      [
        'family + freshness + liveness',
        { job_family: 'data', fresh_after: '2026-09-06', liveness_status: 'live' },
      ],
      [
        'rate window in hourly USD',
        { pay_basis: 'hourly', rate_min: '85', rate_max: '95', currency: 'usd' },
      ],
      [
        'source + date + work structure',
        { source: 'lever', published_after: '2026-09-03', work_structure: 'ongoing_contract' },
      ],
    ],
  };

  it('has cases for every filter parameter of contract §6.1', () => {
    const covered = new Set(
      Object.values(CASES).flatMap((cases) => cases.flatMap(([, q]) => Object.keys(q))),
    );
    expect(CONTRACT_FILTERS.filter((p) => !covered.has(p))).toEqual([]);
    expect(CONTRACT_FILTERS).toHaveLength(28);
  });

  it('the fixture discriminates the tricky rules (oracle sanity, no HTTP)', () => {
    const at = (field: 'published_at' | 'first_seen' | 'changed_at', bound: string) =>
      FIXTURE.filter((r) => r[field] !== null && Date.parse(r[field] ?? '') === Date.parse(bound));
    // Records exactly on the date bounds used above (inclusive bounds are observable).
    expect(at('published_at', fixtureDay(7)).length).toBeGreaterThan(0);
    expect(at('published_at', fixtureDay(3)).length).toBeGreaterThan(0);
    expect(at('first_seen', fixtureDay(9, 6 * H)).length).toBeGreaterThan(0);
    expect(at('changed_at', fixtureDay(14, 6 * H)).length).toBeGreaterThan(0);
    // The same instant spelled with an offset, and an unpublished record on it (fallback).
    expect(at('published_at', '2026-09-20T00:00:00Z').length).toBe(2);
    expect(FIXTURE.some((r) => r.published_at === null && r.first_seen === fixtureDay(9))).toBe(
      true,
    );
    const some = (pred: (r: (typeof FIXTURE)[number]) => boolean) => FIXTURE.some(pred);
    expect(
      some(
        (r) => r.engagement_models.includes('w2_contract') && !r.engagement_models.includes('c2c'),
      ),
    ).toBe(true);
    expect(some((r) => r.engagement_models.length === 0)).toBe(true);
    expect(some((r) => r.commercial_eligibility === 'unknown')).toBe(true);
    expect(some((r) => r.location.remote === null)).toBe(true);
    expect(some((r) => r.rate !== null && r.rate.min === null)).toBe(true);
    expect(some((r) => r.rate !== null && r.rate.max === null)).toBe(true);
    expect(some((r) => r.rate === null)).toBe(true);
    // rate_min=100 must use the upper bound: {80,100} is in, which a min-based rule would drop.
    expect(idsOf(expected({ rate_min: '100' }))).toContain(
      FIXTURE.find((r) => r.rate?.min === 80)?.id,
    );
    // A decimal just past a bound leaves that rate out, as written; Number() would keep it.
    const hundred = FIXTURE.find((r) => r.rate?.min === 80)?.id;
    expect(idsOf(expected({ rate_min: '100.0000000000000001' }))).not.toContain(hundred);
    const eightyHalf = FIXTURE.find((r) => r.rate?.min === 80.5)?.id;
    expect(idsOf(expected({ rate_max: '80.49999999999999999' }))).not.toContain(eightyHalf);
    expect(idsOf(expected({ rate_max: '80.50000000000000001' }))).toContain(eightyHalf);
    // Narrowing keeps all of software_engineering and only data_engineering of data.
    const narrowed = expected({
      job_family: 'data,software_engineering',
      job_subfamily: 'data_engineering',
    });
    expect(
      narrowed.some((r) => r.job_family === 'software_engineering' && r.job_subfamily === null),
    ).toBe(false);
    expect(narrowed.some((r) => r.job_subfamily === 'frontend_engineering')).toBe(true);
    expect(
      narrowed.some((r) => r.job_family === 'data' && r.job_subfamily !== 'data_engineering'),
    ).toBe(false);
    expect(some((r) => r.job_family === 'data' && r.job_subfamily !== 'data_engineering')).toBe(
      true,
    );
    expect(
      expected({ work_structure: 'ongoing_contract' }).some(
        (r) => r.work_structure === 'contract_duration',
      ),
    ).toBe(true);
  });

  it('without filters returns every record, in order, exactly as stored', async () => {
    const { records } = await listAll(world.baseUrl, world.reader.key, '');
    expect(records).toEqual(inListOrder(FIXTURE));
  });

  describe.each(Object.keys(CASES))('%s', (param) => {
    // Rows of equal length: jest passes `done` to a callback declaring more arguments than the row.
    const rows = (CASES[param] ?? []).map(
      ([label, query, mayBeEmpty]) => [label, query, !!mayBeEmpty] as const,
    );
    it.each(rows)('%s', async (_label, query, mayBeEmpty) => {
      const want = idsOf(expected(query));
      // The fixture must make each case discriminating: some records in, some out.
      if (!mayBeEmpty) expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(FIXTURE.length);
      const { records } = await listAll(world.baseUrl, world.reader.key, qs(query));
      expect(idsOf(records)).toEqual(want);
      const count = await get(world.baseUrl, `/v1/opportunities/count?${qs(query)}`, {
        key: world.reader.key,
      });
      expect(count.status).toBe(200);
      expect(count.body.count).toBe(want.length);
    });
  });

  // Stored instants are whole milliseconds: a bound finer than that keeps exactly the records the
  // exact instant would. Truncated, a lower bound admitted the records of its millisecond.
  it.each([
    ['published_after', fixtureDay(7), 1],
    ['first_seen_after', fixtureDay(9, 6 * H), 1],
    ['published_before', fixtureDay(3), 0],
  ] as const)('%s finer than a millisecond', async (param, bound, later) => {
    // 0.1 µs after a millisecond that has records: a lower bound leaves them out, an upper keeps them.
    const want = idsOf(expected({ [param]: new Date(Date.parse(bound) + later).toISOString() }));
    if (later) expect(want.length).toBeLessThan(expected({ [param]: bound }).length);
    const finer = bound.replace('Z', '0001Z');
    const { records } = await listAll(world.baseUrl, world.reader.key, qs({ [param]: finer }));
    expect(idsOf(records)).toEqual(want);
  });

  // A decimal too large for a double becomes Infinity, which JSON (the search request, the cursor
  // digest and meta.applied_filters) turns into null. It must not silently drop the bound.
  describe.each(['rate_min', 'rate_max'])('%s beyond the range of a double', (param) => {
    it('is refused (422) or applied as a number, never dropped', async () => {
      const huge = '9'.repeat(400);
      const res = await get(world.baseUrl, `/v1/opportunities?${param}=${huge}&limit=100`, {
        key: world.reader.key,
      });
      if (res.status === 422) {
        expect(res.body.error.details.parameter).toBe(param);
        return;
      }
      expect(res.status).toBe(200);
      // rate_min: no rate has an upper bound that large; rate_max: every rate is below it.
      const want = param === 'rate_min' ? [] : idsOf(expected({ rate_min: '0' }));
      expect(idsOf(res.body.data)).toEqual(want);
      expect(typeof res.body.meta.applied_filters[param]).toBe('number');
    });
  });
}
