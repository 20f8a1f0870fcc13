import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { Opportunity } from '../../src/domain/record';
import { facetOracle } from '../support/facet-oracle';
import { realWorld } from '../support/fixture-world';
import {
  countOracle,
  countQuery,
  countRequest,
  figures,
  filtersOf,
  qDecided,
  qOracle,
  qTerms,
  qText,
  specs,
  toRecord,
  DIMS,
  type CountRequest,
  type RecordSpec,
  type Term,
} from '../support/fuzz/aggregate-records';
import { FIXTURE, idsOf, qs, type Query } from '../support/read-fixture';
import { get, listAll } from '../support/read-http';
import { memoryWorld, type World } from '../support/worlds';
import { fuzzSettings } from '../support/fuzz/settings';

// A differential property test of the count's aggregates (contract §10.2-§10.5) and of keyword
// search (contract §7.2-§7.3): random small inventories (15 to 50 records) are stored in the real
// app over Postgres, OpenSearch and Redis and in the in-memory world, and random requests are
// asked of both. Each answer must equal an oracle written from the contract text
// (test/support/fuzz/aggregate-records.ts, test/support/facet-oracle.ts): buckets (values, counts,
// order, other_count), histograms (empty buckets, edges, the 400 bound), rate statistics, and the
// ids of every page of a `q` list. Each run's records are removed after it, so runs do not mix.
// FUZZ_RUNS raises the number of runs, FUZZ_SEED picks the seed (FUZZ_SEED=random: any).

const {
  runs: RUNS,
  seed: SEED,
  timeout: TIMEOUT,
} = fuzzSettings({ runs: 8, seed: 20261130, msPerRun: 6_000 });

interface Served {
  name: string;
  world: World;
  key: string;
}
let served: Served[] = [];

beforeAll(async () => {
  process.stderr.write(
    `[aggregates] seed ${SEED}, ${RUNS} runs a property (FUZZ_SEED / FUZZ_RUNS)\n`,
  );
  const [real, memory] = await Promise.all([realWorld([]), memoryWorld([])]);
  served = [
    { name: 'real', world: real, key: (await real.newReader()).key },
    { name: 'memory', world: memory, key: (await memory.newReader()).key },
  ];
}, 120_000);
afterAll(async () => {
  const counts = Object.entries(tally).map(([k, n]) => `${k}: ${n}`);
  process.stderr.write(`[aggregates] ${counts.join(', ')}\n`);
  await Promise.all(served.map((s) => s.world.close()));
});

let run = 0;
/** What the runs reached, printed at the end. */
const tally: Record<string, number> = {};
const seen = (what: string) => {
  tally[what] = (tally[what] ?? 0) + 1;
};

/** Stores the records in both worlds for the body, and removes them after it. */
async function withRecords(
  records: readonly Opportunity[],
  body: () => Promise<void>,
): Promise<void> {
  await Promise.all(served.map((s) => s.world.put(records)));
  try {
    await body();
  } finally {
    const ids = idsOf(records);
    await Promise.all(served.map((s) => s.world.remove(ids)));
  }
}

/** A record's spec with no word of its own beyond `x`. */
const SAMPLE_SPEC: RecordSpec = {
  classId: 'etl_developer',
  depth: 0,
  title: 'x',
  normalizedTitle: 'x',
  specializations: [],
  employer: null,
  intermediary: null,
  client: null,
  level: 'mid',
  engagement: [],
  work: 'unknown',
  pay: 'unknown',
  liveness: 'live',
  eligibility: 'unknown',
  actionability: 'unknown',
  country: null,
  remote: null,
  sources: [],
  rate: null,
  published: '2026-03-02T00:00:00.000Z',
  firstSeen: '2026-03-02T00:00:00.000Z',
};

const recordsOf = (ss: RecordSpec[], tag: string): Opportunity[] =>
  ss.map((s, i) => toRecord(s, `aggregates:${SEED}:${tag}:${i}`));

/** What a count answer is compared on: its figures, or the status and parameter of a refusal. */
async function countAnswer(s: Served, query: Query): Promise<unknown> {
  const res = await get(s.world.baseUrl, `/v1/opportunities/count?${qs(query)}`, { key: s.key });
  if (res.status === 200) return { status: 200, body: figures(res.body) };
  return {
    status: res.status,
    parameter: res.body?.error?.details?.parameter,
  };
}

/** The records a failure is about, short: what the oracle reads of each. */
function brief(records: readonly Opportunity[]): unknown[] {
  return records.map((r) => ({
    id: r.id.slice(0, 8),
    title: r.title,
    nt: r.normalized_title,
    spec: r.specializations,
    orgs: r.organizations.map((o) => o.name),
    tax: [r.job_domain, r.job_family, r.job_subfamily, r.job_class].filter(Boolean).join('>'),
    level: r.level,
    em: r.engagement_models,
    ws: r.work_structure,
    pay: r.pay_basis,
    country: r.location.country,
    remote: r.location.remote,
    src: r.sources.map((x) => x.source),
    live: r.liveness_status,
    elig: r.commercial_eligibility,
    act: r.actionability,
    rate: r.rate,
    pub: r.published_at,
    seen: r.first_seen,
  }));
}

async function checkCount(records: readonly Opportunity[], req: CountRequest): Promise<void> {
  const query = countQuery(req);
  const answers = await Promise.all(
    served.map(async (s) => ({ world: s.name, answer: await countAnswer(s, query) })),
  );
  const want = countOracle(records, req);
  const oracle =
    want.status === 200
      ? { status: 200, body: figures(want.body) }
      : { status: want.status, parameter: want.parameter };
  // A q the contract leaves open: the two worlds against each other only.
  const decided = qDecided(req.q);
  const reference = decided ? oracle : answers[0]?.answer;
  seen(want.status === 400 ? 'count 400' : 'count 200');
  if (want.status === 200) {
    const body = want.body as { count: number; groups?: unknown[]; histogram?: unknown[] };
    if (body.count === 0) seen('count matching nothing');
    if ((body.groups?.length ?? 0) > 1) seen('several buckets');
    if ((body.histogram?.length ?? 0) > 1) seen('histogram of several buckets');
  }
  if (!decided) seen('count q between worlds only');
  for (const { world, answer } of answers) {
    if (!isDeepStrictEqual(answer, reference)) {
      expect({ who: `${world} ?${qs(query)}`, answer, records: brief(records) }).toEqual({
        who: `${decided ? 'oracle' : 'real'} ?${qs(query)}`,
        answer: reference,
        records: brief(records),
      });
    }
  }
}

async function checkQ(records: readonly Opportunity[], ts: Term[], limit: number): Promise<void> {
  const q = qText(ts);
  const want = qOracle(records, ts);
  const answers = await Promise.all(
    served.map(async (s) => {
      const { records: listed } = await listAll(s.world.baseUrl, s.key, qs({ q }), limit);
      const count = await get(s.world.baseUrl, `/v1/opportunities/count?${qs({ q })}`, {
        key: s.key,
      });
      return { world: s.name, ids: idsOf(listed), count: count.body?.count as unknown };
    }),
  );
  const decided = qDecided(ts);
  seen(
    !decided
      ? 'q between worlds only'
      : want.length === 0
        ? 'q matching nothing'
        : 'q matching some',
  );
  const reference = decided
    ? { ids: want, count: want.length }
    : { ids: answers[0]?.ids ?? [], count: answers[0]?.count };
  const title = (id: string) => records.find((r) => r.id === id)?.title;
  for (const { world, ids, count } of answers) {
    if (!isDeepStrictEqual({ ids, count }, reference)) {
      expect({
        who: `${world} q=${q}`,
        ids: ids.map(title),
        count,
        records: brief(records),
      }).toEqual({
        who: `${decided ? 'oracle' : 'real'} q=${q}`,
        ids: reference.ids.map(title),
        count: reference.count,
        records: brief(records),
      });
    }
  }
}

// No shrinking: each step would store and remove an inventory again. A failure prints the query,
// both answers and the records it ran over; cut those down by hand.
const params = { seed: SEED, numRuns: RUNS, verbose: 1 as const, endOnFailure: true };

describe('count aggregates and q agree across the real app, the in-memory world and the oracle', () => {
  it(
    'group_by, group_limit, histogram, stats=rate with 0-2 filters and q (contract §10)',
    async () => {
      const arb = specs().chain((ss) => {
        const shape = recordsOf(ss, 'shape');
        return fc.tuple(
          fc.constant(ss),
          fc.array(countRequest(shape), { minLength: 6, maxLength: 10 }),
        );
      });
      await fc.assert(
        fc.asyncProperty(arb, async ([ss, requests]) => {
          run += 1;
          const records = recordsOf(ss, `count-${run}`);
          await withRecords(records, async () => {
            for (const req of requests) await checkCount(records, req);
          });
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it(
    'q: words, phrases, exclusions and OR in other case and accents; every page and the count (contract §7.2-§7.3)',
    async () => {
      const arb = specs().chain((ss) => {
        const shape = recordsOf(ss, 'shape');
        return fc.tuple(
          fc.constant(ss),
          fc.array(fc.tuple(qTerms(shape), fc.constantFrom(7, 25, 100)), {
            minLength: 6,
            maxLength: 10,
          }),
        );
      });
      await fc.assert(
        fc.asyncProperty(arb, async ([ss, searches]) => {
          run += 1;
          const records = recordsOf(ss, `q-${run}`);
          await withRecords(records, async () => {
            for (const [ts, limit] of searches) await checkQ(records, ts, limit);
          });
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it(
    'group_by over the read fixture matches facet-oracle.ts (contract §10.2)',
    async () => {
      const dims = fc
        .subarray([...DIMS], { minLength: 1, maxLength: 2 })
        .chain((d) => fc.shuffledSubarray(d, { minLength: d.length }));
      const arb = fc.array(
        fc.tuple(
          filtersOf(FIXTURE),
          dims,
          fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
        ),
        { minLength: RUNS, maxLength: RUNS },
      );
      await withRecords(FIXTURE, async () => {
        await fc.assert(
          fc.asyncProperty(arb, async (asks) => {
            for (const [filters, groupBy, limit] of asks) {
              const query: Query = { ...filters, group_by: groupBy.join(',') };
              if (limit !== null) query.group_limit = String(limit);
              const want = facetOracle(filters, groupBy, limit ?? 10);
              for (const s of served) {
                const got = await countAnswer(s, query);
                expect({ world: s.name, query, got }).toEqual({
                  world: s.name,
                  query,
                  got: { status: 200, body: { ...want } },
                });
              }
            }
          }),
          { ...params, numRuns: 1 },
        );
      });
    },
    TIMEOUT,
  );

  it('a histogram of exactly 400 day buckets is served, one of 401 is 400 (contract §10.4.6)', async () => {
    run += 1;
    const at = (published: string) => ({ ...SAMPLE_SPEC, published, firstSeen: published });
    const records = recordsOf(
      [
        at('2025-09-26T00:00:00.000Z'),
        at('2026-10-30T23:59:59.999Z'),
        at('2026-10-30T00:00:00.000Z'),
        at('2025-09-25T23:59:59.999Z'),
      ],
      `edge-${run}`,
    );
    const req = (filters: Query): CountRequest => ({
      filters,
      q: null,
      groupBy: [],
      groupLimit: null,
      histogram: { field: 'published', interval: 'day' },
      stats: true,
    });
    await withRecords(records, async () => {
      for (const filters of [{ fresh_after: '2025-09-26' }, {}] as Query[]) {
        await checkCount(records, req(filters));
      }
    });
    expect(countOracle(records, req({ fresh_after: '2025-09-26' })).status).toBe(200);
    expect(countOracle(records, req({})).status).toBe(400);
  });

  const sameInBothWorlds = async (stored: string, asked: string) => {
    run += 1;
    const records = recordsOf([{ ...SAMPLE_SPEC }, { ...SAMPLE_SPEC }], `fold-${run}`).map(
      (r, i) => ({ ...r, title: i === 0 ? stored : asked }),
    );
    await withRecords(records, async () => {
      const found = [];
      for (const q of [stored, asked]) {
        for (const s of served) {
          const { records: listed } = await listAll(s.world.baseUrl, s.key, qs({ q }), 100);
          found.push(
            `${s.name} q=${q}: ${listed
              .map((r) => r.title)
              .sort()
              .join(', ')}`,
          );
        }
      }
      const both = [asked, stored].sort().join(', ');
      expect(found).toEqual([
        `real q=${stored}: ${both}`,
        `memory q=${stored}: ${both}`,
        `real q=${asked}: ${both}`,
        `memory q=${asked}: ${both}`,
      ]);
    });
  };

  // ASCII folding in both: the in-memory index folds compatibility forms as the engine does.
  it.each([
    ['œuvre', 'oeuvre'],
    ['Straße', 'strasse'],
    ['İstanbul', 'istanbul'],
    ['ıstanbul', 'istanbul'],
    ['ﬁle', 'file'],
    ['ｑｕｏｋｋａ', 'quokka'],
  ])('q=%s and q=%s find the same records in both worlds', sameInBothWorlds);
});
