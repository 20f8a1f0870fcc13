import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

// The README's TypeScript quickstart: openapi-fetch over the generated types.
// test/integration/typed-client.test.ts runs it against a live server, so it cannot rot.

// A listed record: the whole Opportunity, or id plus the named fields when the query has `fields`.
type Listed = components['schemas']['ListEnvelope']['data'][number];

/**
 * One call, made again after `Retry-After` seconds while the rate limit refuses it (429), as the
 * API asks: the Free plan takes 2 requests a second, so a loop of calls meets it at once.
 */
async function patiently<T extends { response: Response }>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const result = await call();
    if (result.response.status !== 429 || attempt === 10) return result;
    const seconds = Number(result.response.headers.get('Retry-After')) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/**
 * `maxPages` bounds the walk: every record listed is a delivery, and a walk to the end of a broad
 * filter would spend a good part of a month's allowance (count with include=new_count first to know).
 */
export async function quickstart(baseUrl: string, apiKey: string, maxPages = 5) {
  const api = createClient<paths>({
    baseUrl,
    headers: { 'X-API-Key': apiKey },
    // The document declares lists `style: form, explode: false`: level=senior,staff. openapi-fetch
    // repeats the name by default, which the API refuses (400 invalid_filter, repeated).
    querySerializer: { array: { style: 'form', explode: false } },
  });

  // 1. List senior and staff opportunities, following the signed cursor (at most maxPages pages).
  // The query is typed: limit is a number, level an array of the level enum, remote a boolean.
  const seen: Listed[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { data, error } = await patiently(() =>
      api.GET('/v1/opportunities', {
        params: {
          // A spread rather than `cursor: undefined`: it compiles under exactOptionalPropertyTypes.
          query: {
            level: ['senior', 'staff'],
            remote: true,
            limit: 3,
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
    seen.push(...data.data);
    cursor = data.pagination.next_cursor ?? undefined;
  } while (cursor && ++pages < maxPages);

  // 2. Count the same filters (free: consumes no allowance).
  const count = await patiently(() =>
    api.GET('/v1/opportunities/count', {
      params: { query: { level: ['senior', 'staff'], remote: true } },
    }),
  );
  if (count.error) throw new Error(count.error.error.code);

  // 3. One record in full, by id.
  const first = seen[0];
  const detail = first
    ? await patiently(() =>
        api.GET('/v1/opportunities/{opportunity_id}', {
          params: { path: { opportunity_id: first.id } },
        }),
      )
    : undefined;
  if (detail?.error) throw new Error(detail.error.error.code);

  return { listed: seen, count: count.data.count, detail: detail?.data?.data };
}
