import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { createSearchClient } from '../../src/search/client';
import { startHangProxy, type HangProxy } from './hang-proxy';
import type { TestContext } from './harness';
import { serve } from './read-http';

/**
 * The context's app with its search engine behind a proxy that can hold the search calls until
 * released (hang-proxy.ts), so that requests stay in flight for exactly as long as a test needs.
 * No result cache: every call reaches the engine, through the proxy.
 */
export async function appOverHeldSearch(
  ctx: TestContext,
): Promise<{ proxy: HangProxy; baseUrl: string; close(): Promise<void> }> {
  const search = new URL(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200');
  const proxy = await startHangProxy(Number(search.port), search.hostname);
  const client = createSearchClient(`http://127.0.0.1:${proxy.port}`, 60_000);
  const app = await serve(
    createApp(compose({ ...ctx.deps, search: client, searchCache: undefined })),
  );
  return {
    proxy,
    baseUrl: app.baseUrl,
    async close() {
      proxy.release();
      await app.close();
      await proxy.close();
    },
  };
}
