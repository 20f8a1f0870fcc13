import { parseRestQuery } from '../../src/domain/filters';
import { buildListSearchBody } from '../../src/search/query-builder';
import type { AppDeps } from '../../src/service/context';
import type { Req } from './load';

// The one-account charged workloads: every connection uses the key of ONE
// account, and every request delivers records new to it, so each request is a charge and all of
// them contend for that account's ledger. Each workload gets an account of its own (nothing
// delivered before), and its raw twin asks OpenSearch the same thing: GET _doc of the same ids,
// search_after over the same filters. `npm run bench -- --only one-account` runs only these.

type Next = (context: Record<string, unknown>) => Req;

/** The bench's measure() (scripts/bench.ts), as far as these workloads use it. */
export type Measure = (
  workload: string,
  apiNext: Next,
  rawNext: Next,
  rawLabel: string,
  extra?: { onApiBody?: (b: string, c: Record<string, unknown>) => void } & {
    onRawBody?: (b: string, c: Record<string, unknown>) => void;
  },
) => Promise<void>;

export interface OneAccountBench {
  deps: AppDeps;
  /** The job families with the most records (the cursor workload pages through them). */
  families: string[];
  measure: Measure;
  /** The key of a new account with limits no workload reaches. */
  newKey: () => Promise<string>;
}

/** Enough ids that no request of a detail run (≈ 2,000 req/s × 8 s) meets one twice. */
const DETAIL_IDS = 60_000;

export async function oneAccountWorkloads(b: OneAccountBench): Promise<void> {
  const { deps } = b;
  const ids = (
    await deps.pool.query<{ id: string }>(
      'SELECT id FROM opportunities WHERE deleted_at IS NULL LIMIT $1',
      [DETAIL_IDS],
    )
  ).rows.map((r) => r.id);
  const json = { 'Content-Type': 'application/json' };

  const detailKey = await b.newKey();
  let apiId = 0;
  let rawId = 0;
  await b.measure(
    'one-account detail, a new id every request (charged)',
    () => ({
      path: `/v1/opportunities/${ids[apiId++ % ids.length] ?? ''}`,
      headers: { 'X-API-Key': detailKey },
    }),
    () => ({ path: `/${deps.alias}/_doc/${ids[rawId++ % ids.length] ?? ''}` }),
    'GET _doc',
  );

  // Each connection pages with cursors through a filter of its own (family x remote), so its
  // pages are new records: 25 charged opportunities a page.
  const pairs = b.families.flatMap((f) => [
    `job_family=${f}&remote=true`,
    `job_family=${f}&remote=false`,
  ]);
  const assign = () => {
    let next = 0;
    return (c: Record<string, unknown>): string =>
      (c.mix ??= pairs[next++ % pairs.length]) as string;
  };
  const apiPair = assign();
  const rawPair = assign();
  const bodies = new Map<string, object>();
  const rawBody = (q: string): object => {
    let body = bodies.get(q);
    if (!body) {
      const { filter } = parseRestQuery('list', Object.fromEntries(new URLSearchParams(q)), {
        taxonomy: deps.taxonomy,
        maxPageSize: 100,
      });
      body = buildListSearchBody(filter, deps.taxonomy, { size: 26 });
      bodies.set(q, body);
    }
    return body;
  };
  const pagingKey = await b.newKey();
  await b.measure(
    'one-account list 25, following cursors (new records, charged)',
    (c) => ({
      path: `/v1/opportunities?${apiPair(c)}&limit=25${c.cursor ? `&cursor=${String(c.cursor)}` : ''}`,
      headers: { 'X-API-Key': pagingKey },
    }),
    (c) => ({
      method: 'POST',
      path: `/${deps.alias}/_search`,
      headers: json,
      body: JSON.stringify({
        ...rawBody(rawPair(c)),
        ...(c.after ? { search_after: c.after } : {}),
      }),
    }),
    'search_after',
    {
      onApiBody: (body, c) => {
        c.cursor = (
          JSON.parse(body) as { pagination: { next_cursor: string | null } }
        ).pagination.next_cursor;
      },
      onRawBody: (body, c) => {
        const hits = (JSON.parse(body) as { hits: { hits: Array<{ sort: unknown[] }> } }).hits.hits;
        c.after = hits.length > 25 ? hits[24]?.sort : undefined;
      },
    },
  );
}
