import fc from 'fast-check';
import type { Opportunity } from '../../src/domain/record';
import { realWorld } from '../support/fixture-world';
import {
  edgeQueries,
  edgeRecords,
  queryArb,
  recordsArb,
  taxonomyQueryArb,
  verdict,
} from '../support/fuzz/records';
import { qs, type Query } from '../support/read-fixture';
import { get, listAll } from '../support/read-http';
import { memoryWorld, type World } from '../support/worlds';
import { fuzzSettings } from '../support/fuzz/settings';

// Differential property of contract §6 and §8: random small inventories (records.ts) and random
// filter queries over them, each answered three ways: the oracle (records.ts `verdict`, built on
// read-fixture.ts's `expected`), the real app over Postgres + OpenSearch + Redis, and the same
// app over the in-memory backends. The list's ids in order (every page at limit=100, and a walk
// at a small page size) and the count must agree across all three; a refused query must be
// refused alike by both apps, with one of the errors the oracle names.
// `npm test` runs a fixed seed and few runs; FUZZ_RUNS and FUZZ_SEED (FUZZ_SEED=random) run more.

const {
  runs: RUNS,
  seed: SEED,
  timeout: TIMEOUT,
} = fuzzSettings({ runs: 8, seed: 20261205, msPerRun: 4_000 });

interface Side {
  world: World;
  key: string;
}
let real: Side;
let memory: Side;

beforeAll(async () => {
  process.stderr.write(
    `[filters-differential] seed ${SEED}, ${RUNS} runs (FUZZ_SEED / FUZZ_RUNS)\n`,
  );
  const [r, m] = await Promise.all([realWorld([]), memoryWorld([])]);
  real = { world: r, key: (await r.newReader()).key };
  memory = { world: m, key: (await m.newReader()).key };
}, 120_000);
afterAll(async () => {
  await Promise.all([real?.world.close(), memory?.world.close()]);
});

/** What one app answers to a query: the list (all pages) and the count, or their errors. */
interface Answer {
  status: number;
  error?: { code: string; details: unknown };
  ids?: string[];
  /** The ids walked at a small page size, when one was asked for. */
  smallPages?: string[];
  count?: number;
  countStatus: number;
  countError?: { code: string; details: unknown };
}

const errorOf = (body: { error?: { code?: string; details?: unknown } } | null) => ({
  code: String(body?.error?.code),
  details: body?.error?.details,
});

async function answer(side: Side, query: Query, smallLimit: number | null): Promise<Answer> {
  const { baseUrl } = side.world;
  const search = qs(query);
  const [first, count] = await Promise.all([
    get(baseUrl, `/v1/opportunities?${search}&limit=100`, { key: side.key }),
    get(baseUrl, `/v1/opportunities/count?${search}`, { key: side.key }),
  ]);
  const out: Answer = { status: first.status, countStatus: count.status };
  if (count.status === 200) out.count = count.body.count as number;
  else out.countError = errorOf(count.body);
  if (first.status !== 200) {
    out.error = errorOf(first.body);
    return out;
  }
  out.ids = (await listAll(baseUrl, side.key, search, 100)).records.map((r) => r.id);
  if (smallLimit !== null) {
    out.smallPages = (await listAll(baseUrl, side.key, search, smallLimit)).records.map(
      (r) => r.id,
    );
  }
  return out;
}

interface Case {
  records: Opportunity[];
  queries: Query[];
  smallLimit: number | null;
}

const caseArb: fc.Arbitrary<Case> = recordsArb().chain((records) =>
  fc.record({
    records: fc.constant(records),
    queries: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: queryArb(records) },
        { weight: 1, arbitrary: taxonomyQueryArb(records) },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    smallLimit: fc.constantFrom(null, null, 3, 7),
  }),
);

/** Statuses seen, printed at the end: what the runs actually reached. */
const seen = new Map<string, number>();
const tally = (label: string) => seen.set(label, (seen.get(label) ?? 0) + 1);
afterAll(() => {
  const counts = [...seen].sort().map(([label, n]) => `${label}: ${n}`);
  process.stderr.write(`[filters-differential] ${counts.join(', ')}\n`);
});

async function agrees(query: Query, records: readonly Opportunity[], smallLimit: number | null) {
  const want = verdict(query, records);
  const [r, m] = await Promise.all([
    answer(real, query, smallLimit),
    answer(memory, query, smallLimit),
  ]);
  if (want.ok) {
    tally(
      want.ids.length === 0
        ? '200 empty'
        : want.ids.length === records.length
          ? '200 all'
          : '200 some',
    );
    const ideal: Answer = {
      status: 200,
      ids: want.ids,
      count: want.ids.length,
      countStatus: 200,
      ...(smallLimit === null ? {} : { smallPages: want.ids }),
    };
    expect({ world: 'real', query, ...r }).toEqual({ world: 'real', query, ...ideal });
    expect({ world: 'memory', query, ...m }).toEqual({ world: 'memory', query, ...ideal });
    return;
  }
  tally(`${r.status} ${r.error?.code ?? ''}`);
  // Both apps refuse it alike, list and count alike, with an error the oracle names.
  expect({ world: 'memory', query, ...m }).toEqual({ world: 'memory', query, ...r });
  expect({ status: r.countStatus, ...r.countError }).toEqual({ status: r.status, ...r.error });
  const details = r.error?.details as { parameter?: string } | undefined;
  expect(want.errors).toContainEqual({
    status: r.status,
    code: r.error?.code,
    parameter: details?.parameter,
  });
}

describe('filters: the oracle, the real backends and the in-memory ones agree (contract §6, §8)', () => {
  it(
    'random records and random filter queries',
    () =>
      fc.assert(
        fc.asyncProperty(caseArb, async ({ records, queries, smallLimit }) => {
          await Promise.all([real.world.put(records), memory.world.put(records)]);
          try {
            for (const query of queries) await agrees(query, records, smallLimit);
          } finally {
            const ids = records.map((r) => r.id);
            await Promise.all([real.world.remove(ids), memory.world.remove(ids)]);
          }
        }),
        { seed: SEED, numRuns: RUNS, verbose: 1 },
      ),
    TIMEOUT,
  );

  it(
    'odd values of every kind over an inventory holding every pool value',
    async () => {
      const records = edgeRecords(SEED);
      await Promise.all([real.world.put(records), memory.world.put(records)]);
      try {
        // A few at a time: reads only, and the inventory does not change meanwhile.
        const queries = edgeQueries();
        for (let i = 0; i < queries.length; i += 6) {
          await Promise.all(queries.slice(i, i + 6).map((q) => agrees(q, records, null)));
        }
      } finally {
        const ids = records.map((r) => r.id);
        await Promise.all([real.world.remove(ids), memory.world.remove(ids)]);
      }
    },
    TIMEOUT,
  );
});
