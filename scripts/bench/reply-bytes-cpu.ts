// The API's CPU to write a REST list body, one string (listJson, encoded as the reply is written)
// against listJsonBody (src/service/list-json.ts: a long page from its records' UTF-8 bytes), for
// pages of 25 and 100 records read from the bench index (its newest records, a few not ASCII),
// alternating in one process. Each round serves fresh record objects, as pages no cache has seen.
//   DATABASE_URL=... OPENSEARCH_URL=... npx tsx scripts/bench/reply-bytes-cpu.ts [--pages 1000]
import { shutdown } from '../../src/bootstrap';
import { parseRestQuery } from '../../src/domain/filters';
import type { Opportunity } from '../../src/domain/record';
import { servedRecord, type RawHit } from '../../src/search/opensearch-index';
import { buildListSearchBody } from '../../src/search/query-builder';
import { listEnvelope } from '../../src/service/envelopes';
import { listJson, listJsonBody } from '../../src/service/list-json';
import { probeDeps } from './probe-deps';

const i = process.argv.indexOf('--pages');
const PAGES = Number(i >= 0 ? process.argv[i + 1] : 1000);

async function main(): Promise<void> {
  const deps = await probeDeps();
  const { filter } = parseRestQuery('list', {}, { taxonomy: deps.taxonomy, maxPageSize: 100 });
  const res = await deps.search.search({
    index: deps.alias,
    body: buildListSearchBody(filter, deps.taxonomy, { size: 100 }) as never,
  });
  const sources = (res.body as { hits: { hits: RawHit[] } }).hits.hits.map((h) => h._source);
  // New record objects each time: a record's text and bytes are kept beside its object.
  const records = (n: number) => sources.slice(0, n).map((s) => servedRecord(s) as Opportunity);
  const ways = {
    string: (list: Opportunity[]) =>
      Buffer.from(listJson(listEnvelope(list, null, 100, 'r', filter))).length,
    listJsonBody: (list: Opportunity[]) => {
      const body = listJsonBody(listEnvelope(list, null, 100, 'r', filter));
      if (typeof body === 'string') return Buffer.from(body).length;
      // Written out at once, as a reply is: its pooled buffer serves the next page.
      body.release();
      return body.bytes.length;
    },
  };
  const run = (way: (list: Opportunity[]) => number, n: number) => {
    const pages = Array.from({ length: PAGES }, () => records(n));
    const start = process.cpuUsage();
    for (const list of pages) way(list);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / PAGES;
  };
  for (const n of [100, 25]) {
    for (const way of Object.values(ways)) run(way, n);
    for (let round = 1; round <= 3; round++) {
      const string = run(ways.string, n);
      const bytes = run(ways.listJsonBody, n);
      console.log(
        `${n} records, round ${round}: one string ${string.toFixed(3)} ms a page, ` +
          `listJsonBody ${bytes.toFixed(3)} ms; ${(bytes / string).toFixed(2)}`,
      );
    }
  }
  await shutdown(deps);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
