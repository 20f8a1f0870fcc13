// The engine's CPU per 25 records of a cursor walk, by the size of each search: what the read-ahead
// of pages after a cursor (OpenSearchIndex.readAhead, src/search/opensearch-index.ts) buys. Walks
// the four largest job families (2,000 records each, one connection, so CPU and not waiting is
// measured) with the list's own search bodies, once with the stored texts (what a page after a
// cursor asks) and once with digests only (doc values), and reads the OpenSearch process's CPU
// from /proc around each walk.
//   DATABASE_URL=…/bench1m OPENSEARCH_URL=http://127.0.0.1:19327 npx tsx scripts/bench/page-sizes.ts
// (the database and index of `npm run bench`: `cli seed --count 1000000 --seed 42`).
import { Pool } from 'pg';
import { parseRestQuery } from '../../src/domain/filters';
import { taxonomyFromCatalog } from '../../src/domain/taxonomy/catalog';
import { createSearchClient } from '../../src/search/client';
import { aliasForDatabase } from '../../src/search/index-manager';
import { buildListSearchBody, digestsOnly, type SearchAfter } from '../../src/search/query-builder';
import { assertFullJit, machineLine } from './machine';
import { cpuMs, pidListeningOn } from './proc';

const OPENSEARCH_URL = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:19327';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench1m';
const RECORDS_PER_FAMILY = 2000;
const SIZES = [26, 51, 101, 201];

async function topFamilies(): Promise<string[]> {
  const pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
  try {
    const { rows } = await pool.query<{ f: string }>(
      `SELECT job_family AS f FROM opportunities WHERE deleted_at IS NULL AND job_family IS NOT NULL
       GROUP BY 1 ORDER BY count(*) DESC LIMIT 4`,
    );
    return rows.map((r) => r.f);
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const taxonomy = taxonomyFromCatalog();
  const alias = aliasForDatabase(new URL(DATABASE_URL).pathname.slice(1));
  const osPid = pidListeningOn(Number(new URL(OPENSEARCH_URL).port));
  if (!osPid) throw new Error(`no process listens on ${OPENSEARCH_URL}`);
  const client = createSearchClient(OPENSEARCH_URL, 10_000);
  await assertFullJit(client);
  await client.close();
  const families = await topFamilies();
  console.log(`${machineLine()}; alias ${alias}, families ${families.join(', ')}`);
  console.log('| hits per search | read | engine CPU ms per 25 records | ms per search |');
  console.log('|---|---|---|---|');
  for (const round of [1, 2]) {
    for (const read of ['texts', 'digests'] as const) {
      for (const size of SIZES) {
        let records = 0;
        let searches = 0;
        const cpu0 = cpuMs(osPid);
        const t0 = performance.now();
        for (const family of families) {
          const { filter } = parseRestQuery(
            'list',
            { job_family: family },
            { taxonomy, maxPageSize: 100 },
          );
          let after: SearchAfter | undefined;
          let got = 0;
          while (got < RECORDS_PER_FAMILY) {
            const page = buildListSearchBody(filter, taxonomy, { size, searchAfter: after });
            const body = read === 'texts' ? page : digestsOnly(page);
            const res = await fetch(`${OPENSEARCH_URL}/${alias}/_search`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(body),
            });
            const hits = ((await res.json()) as { hits: { hits: Array<{ sort: SearchAfter }> } })
              .hits.hits;
            searches++;
            if (hits.length < size) break;
            got += size - 1;
            after = hits[size - 2]?.sort;
          }
          records += got;
        }
        const cpu = cpuMs(osPid) - cpu0;
        const ms = performance.now() - t0;
        // The first round warms the engine's caches and JIT; the second is the one to read.
        if (round === 2) {
          console.log(
            `| ${size} | ${read} | ${((cpu / records) * 25).toFixed(2)} | ${(ms / searches).toFixed(1)} |`,
          );
        }
      }
    }
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
