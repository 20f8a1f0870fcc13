// The API's CPU per list search, from the request to the reply's text: the same searches against
// two indexes of the same records, one whose stored texts are JSON.stringify's (written before
// search/stored-text.ts) and one whose texts are ASCII. Only this process's CPU is counted (the
// client's request, reading and decoding the answer, parsing it, each hit's record and the
// reply's text); the engine's is its own. The two alternate, round after round, so each pair is
// measured back to back on the same machine state.
//   DATABASE_URL=... OPENSEARCH_URL=... npx tsx scripts/bench/stored-text-cpu.ts \
//     --before INDEX --after INDEX [--searches 400] [--rounds 3]
import { shutdown } from '../../src/bootstrap';
import { parseRestQuery } from '../../src/domain/filters';
import { servedRecord, type RawHit } from '../../src/search/opensearch-index';
import { buildListSearchBody } from '../../src/search/query-builder';
import { listEnvelope } from '../../src/service/envelopes';
import { listJson } from '../../src/service/list-json';
import { largestFamilies, probeDeps } from './probe-deps';

const arg = (name: string, fallback?: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : fallback;
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
};
const BEFORE = arg('before');
const AFTER = arg('after');
const SEARCHES = Number(arg('searches', '400'));
const ROUNDS = Number(arg('rounds', '3'));

async function main(): Promise<void> {
  const deps = await probeDeps();
  const ctx = { taxonomy: deps.taxonomy, maxPageSize: 100 };
  const families = await largestFamilies(deps.pool, 10);
  // Pages a cursor walk asks for: 101 hits (read-ahead, four pages of 25) and 26 (a first page),
  // each over one family, at a few depths of its walk.
  const bodies = families.flatMap((family, i) => {
    const { filter } = parseRestQuery('list', { job_family: family }, ctx);
    return [101, 26].map((size) => ({
      ...buildListSearchBody(filter, deps.taxonomy, { size }),
      from: (i % 5) * 200,
    }));
  });
  const { filter } = parseRestQuery('list', {}, ctx);
  const search = async (index: string, body: object, n: number) => {
    const res = await deps.search.search({ index, body: body as never });
    const hits = (res.body as { hits?: { hits?: RawHit[] } }).hits?.hits ?? [];
    const records = hits.flatMap((h) => servedRecord(h._source) ?? []);
    // The replies of the pages these hits make (listJson splices each record's served text).
    let chars = 0;
    for (let at = 0; at < records.length; at += 25) {
      const page = records.slice(at, at + 25);
      chars += listJson(listEnvelope(page, null, 25, `request-${n}`, filter)).length;
    }
    return chars;
  };
  const run = async (index: string) => {
    let chars = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < SEARCHES; i++)
      chars += await search(index, bodies[i % bodies.length] as object, i);
    const used = process.cpuUsage(start);
    return { ms: (used.user + used.system) / 1000 / SEARCHES, chars: chars / SEARCHES };
  };
  await run(BEFORE);
  await run(AFTER);
  for (let round = 1; round <= ROUNDS; round++) {
    const before = await run(BEFORE);
    const after = await run(AFTER);
    console.log(
      `round ${round}: ${before.ms.toFixed(3)} ms per search (${BEFORE}, texts as written), ` +
        `${after.ms.toFixed(3)} ms (${AFTER}, ASCII); after/before ${(after.ms / before.ms).toFixed(2)}; ` +
        `${Math.round(before.chars)} and ${Math.round(after.chars)} characters of replies a search`,
    );
  }
  await shutdown(deps);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
