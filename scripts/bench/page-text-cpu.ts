// The API's CPU between the engine's answer to a list search and the reply's bytes and ETag, per
// page of 25 that no cache has seen: the same pages served from each record's
// stored text and digest (mapping 4) and from record objects (the source of an index of mapping 3,
// served by the same code's fallback: what every page cost before). One process, the two
// alternating, so the pair is measured back to back on the same machine state.
//   DATABASE_URL=... OPENSEARCH_URL=... npx tsx scripts/bench/page-text-cpu.ts [--pages 2000]
import { Serializer } from '@opensearch-project/opensearch';
import { shutdown } from '../../src/bootstrap';
import { parseRestQuery } from '../../src/domain/filters';
import { servedRecord, type RawHit } from '../../src/search/opensearch-index';
import { buildListSearchBody } from '../../src/search/query-builder';
import { listEnvelope } from '../../src/service/envelopes';
import { listJson, listRepresentationTag } from '../../src/service/list-json';
import { probeDeps } from './probe-deps';

const PAGES = Number(process.argv[process.argv.indexOf('--pages') + 1] || 2000);

async function main(): Promise<void> {
  const deps = await probeDeps();
  const ctx = { taxonomy: deps.taxonomy, maxPageSize: 100 };
  // 20 different first pages of 25 (+1), as the engine answers them.
  const answers: string[] = [];
  for (let i = 0; answers.length < 20 && i < 200; i++) {
    const { filter } = parseRestQuery('list', { rate_min: String(20 + i) }, ctx);
    const res = await deps.search.search({
      index: deps.alias,
      body: buildListSearchBody(filter, deps.taxonomy, { size: 26 }) as never,
      filter_path: ['hits.hits._source', 'hits.hits.sort'],
    });
    const hits = (res.body as { hits?: { hits?: RawHit[] } }).hits?.hits ?? [];
    if (hits.length === 26 && hits[0]?._source?.record_json) answers.push(JSON.stringify(res.body));
  }
  if (answers.length === 0) throw new Error('no page of 26 with stored texts: reindex first');
  // The same answers as an index of mapping 3 gives them: the record as an object, no text.
  const legacy = answers.map((text) => {
    const body = JSON.parse(text) as { hits: { hits: RawHit[] } };
    for (const hit of body.hits.hits) {
      const { record_json: json } = hit._source ?? {};
      hit._source = { record: JSON.parse(json as string) as never };
    }
    return JSON.stringify(body);
  });
  const serializer = new Serializer();
  const { filter } = parseRestQuery('list', {}, ctx);
  const serve = (text: string, n: number): number => {
    const body = serializer.deserialize(text) as { hits: { hits: RawHit[] } };
    const records = body.hits.hits.slice(0, 25).flatMap((h) => servedRecord(h._source) ?? []);
    const envelope = listEnvelope(records, 'cursor', 25, `request-${n}`, filter);
    return listJson(envelope).length + listRepresentationTag(envelope).length;
  };
  const run = (kind: string, texts: string[]) => {
    let bytes = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < PAGES; i++) bytes += serve(texts[i % texts.length] as string, i);
    const used = process.cpuUsage(start);
    return { kind, ms: (used.user + used.system) / 1000 / PAGES, bytes: bytes / PAGES };
  };
  for (const round of [1, 2, 3]) {
    for (const [kind, texts] of [
      ['record objects (mapping 3)', legacy],
      ['stored texts (mapping 4)', answers],
    ] as const) {
      const r = run(kind, texts);
      console.log(
        `round ${round}: ${r.kind}: ${r.ms.toFixed(3)} ms CPU per page (${Math.round(r.bytes)} bytes)`,
      );
    }
  }
  await shutdown(deps);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
