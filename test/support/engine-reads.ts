import type { Opportunity } from '../../src/domain/record';
import type { TestContext } from './harness';
import { get, type Reader } from './read-http';

// What a list request asks of the engine, seen on the client the app shares with the test: the
// suites that hold how pages are read (record texts, read-ahead) count these.

type Seen = { meta?: { request?: { params?: { path?: string; body?: unknown } } } };

/**
 * The page's reads of the engine while `run` runs: 'digests' (a search for digests only), 'texts'
 * (a search with the stored texts) and 'mget'; a first question to the mapping per index
 * generation aside. With `sizes`, each search's size is pushed to it.
 */
export async function engineReads(
  ctx: TestContext,
  run: () => Promise<void>,
  sizes?: number[],
): Promise<string[]> {
  const reads: string[] = [];
  const seen = (_err: unknown, result: Seen) => {
    const { path = '', body } = result?.meta?.request?.params ?? {};
    const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
    if (path.endsWith('/_mget')) reads.push('mget');
    else if (path.endsWith('/_search')) {
      reads.push(text.includes('"stored_fields":["_none_"]') ? 'digests' : 'texts');
      sizes?.push((JSON.parse(text) as { size: number }).size);
    }
  };
  ctx.deps.search.on('response', seen);
  try {
    await run();
  } finally {
    ctx.deps.search.off('response', seen);
  }
  return reads;
}

export interface Walked {
  /** Each page's engine reads. */
  ways: string[][];
  /** Each page's records. */
  pages: Opportunity[][];
  ids: string[];
}

/**
 * Every page of a list by cursor, or the first `maxPages`; `between` runs after each page but the
 * last, before the next is asked for.
 */
export async function walk(
  ctx: TestContext,
  reader: Reader,
  query: string,
  {
    maxPages = Infinity,
    between,
  }: { maxPages?: number; between?: (page: number) => Promise<void> } = {},
): Promise<Walked> {
  const walked: Walked = { ways: [], pages: [], ids: [] };
  let path = `/v1/opportunities?${query}`;
  while (walked.pages.length < maxPages) {
    let body: { data: Opportunity[]; pagination: { next_cursor: string | null } } | undefined;
    walked.ways.push(
      await engineReads(ctx, async () => {
        const res = await get(ctx.baseUrl, path, { key: reader.key });
        expect(res.status).toBe(200);
        body = res.body as typeof body;
      }),
    );
    const data = body?.data ?? [];
    walked.pages.push(data);
    walked.ids.push(...data.map((r) => r.id));
    const next = body?.pagination.next_cursor;
    if (!next) break;
    await between?.(walked.pages.length);
    path = `/v1/opportunities?${query}&cursor=${encodeURIComponent(next)}`;
  }
  return walked;
}
