import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

// The README's TypeScript quickstart: openapi-fetch over the generated types.
// test/integration/typed-client.test.ts runs it against a live server, so it cannot rot.

// A listed record: the whole Opportunity, or id plus the named fields when the query has `fields`.
type Listed = components['schemas']['ListEnvelope']['data'][number];

export async function quickstart(baseUrl: string, apiKey: string) {
  const api = createClient<paths>({
    baseUrl,
    headers: { 'X-API-Key': apiKey },
    // The document declares lists `style: form, explode: false`: level=senior,staff. openapi-fetch
    // repeats the name by default, which the API refuses (400 invalid_filter, repeated).
    querySerializer: { array: { style: 'form', explode: false } },
  });

  // 1. List senior and staff opportunities, following the signed cursor to the end. The query is
  // typed: limit is a number, level an array of the level enum, remote a boolean.
  const seen: Listed[] = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await api.GET('/v1/opportunities', {
      params: {
        // A spread rather than `cursor: undefined`, so it compiles under exactOptionalPropertyTypes.
        query: {
          level: ['senior', 'staff'],
          remote: true,
          limit: 3,
          ...(cursor ? { cursor } : {}),
        },
      },
    });
    if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
    seen.push(...data.data);
    cursor = data.pagination.next_cursor ?? undefined;
  } while (cursor);

  // 2. Count the same filters (free: consumes no allowance).
  const count = await api.GET('/v1/opportunities/count', {
    params: { query: { level: ['senior', 'staff'], remote: true } },
  });
  if (count.error) throw new Error(count.error.error.code);

  // 3. One record in full, by id.
  const first = seen[0];
  const detail = first
    ? await api.GET('/v1/opportunities/{opportunity_id}', {
        params: { path: { opportunity_id: first.id } },
      })
    : undefined;
  if (detail?.error) throw new Error(detail.error.error.code);

  return { listed: seen, count: count.data.count, detail: detail?.data?.data };
}
