// The API's CPU per list search read two ways, alternating in one process: the client's whole
// answer as one string (JSON.parse of all of it), and answerItems (search/answer-items.ts: the
// answer's bytes, parsed hit by hit when longer than a regular string may be, else whole). Only
// this process's CPU is counted: the request, reading the answer, parsing it and each hit's
// record; the engine's is its own.
//   DATABASE_URL=... OPENSEARCH_URL=... npx tsx scripts/bench/answer-split-cpu.ts \
//     [--searches 400] [--rounds 3] [--sizes 101,26]
import { shutdown } from '../../src/bootstrap';
import { parseRestQuery } from '../../src/domain/filters';
import { answerItems } from '../../src/search/answer-items';
import { servedRecord, type RawHit } from '../../src/search/opensearch-index';
import { buildListSearchBody } from '../../src/search/query-builder';
import { largestFamilies, probeDeps } from './probe-deps';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const SEARCHES = Number(arg('searches', '400'));
const ROUNDS = Number(arg('rounds', '3'));
const SIZES = arg('sizes', '101,26').split(',').map(Number);

async function main(): Promise<void> {
  const deps = await probeDeps();
  const ctx = { taxonomy: deps.taxonomy, maxPageSize: 100 };
  const families = await largestFamilies(deps.pool, 10);
  const { search, alias } = deps;
  for (const size of SIZES) {
    const bodies = families.map((family, i) => ({
      ...buildListSearchBody(
        parseRestQuery('list', { job_family: family }, ctx).filter,
        deps.taxonomy,
        {
          size,
        },
      ),
      from: (i % 5) * 200,
    }));
    const ways = {
      whole: async (body: object) => {
        const res = await search.search({ index: alias, body: body as never });
        return ((res.body as { hits: { hits: RawHit[] } }).hits.hits ?? []).map((h) =>
          servedRecord(h._source),
        ).length;
      },
      answerItems: async (body: object) => {
        const hits = (await answerItems(
          () => search.search({ index: alias, body: body as never }, { asStream: true }),
          ']}}',
        )) as RawHit[];
        return hits.map((h) => servedRecord(h._source)).length;
      },
    };
    const run = async (way: (body: object) => Promise<number>) => {
      const start = process.cpuUsage();
      for (let i = 0; i < SEARCHES; i++) await way(bodies[i % bodies.length] as object);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000 / SEARCHES;
    };
    for (const way of Object.values(ways)) await run(way);
    for (let round = 1; round <= ROUNDS; round++) {
      const whole = await run(ways.whole);
      const split = await run(ways.answerItems);
      console.log(
        `${size} hits, round ${round}: whole ${whole.toFixed(3)} ms per search, ` +
          `answerItems ${split.toFixed(3)} ms; ${(split / whole).toFixed(2)}`,
      );
    }
  }
  await shutdown(deps);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
