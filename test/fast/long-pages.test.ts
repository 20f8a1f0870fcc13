import type { Opportunity } from '../../src/domain/record';
import { makeRecord } from '../support/fixtures';
import { get } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';

// A list page with more than 60,000 characters of records is written from the records' bytes in a
// pooled buffer (src/infra/reply-buffers.ts), reused once a reply is written: over HTTP, each
// reply is exactly its own page (its Content-Length, its records, nothing of the page before).

const long = (i: number): Opportunity =>
  makeRecord({
    title: `${i % 5 === 0 ? 'Z\u00fcrich \ud83d\ude80 ' : ''}${String(i).padStart(3, '0')} ${'x'.repeat(2000)}`,
    first_seen: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
  });
const RECORDS = Array.from({ length: 80 }, (_, i) => long(i));
const byId = new Map(RECORDS.map((r) => [r.id, JSON.parse(JSON.stringify(r)) as unknown]));

let app: FastApp;
let key: string;

beforeAll(async () => {
  app = await startFastApp(RECORDS);
  ({ key } = app.reader());
});
afterAll(() => app.close());

it('serves long pages one after another, each exactly its own records, then a short one', async () => {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (const limit of [50, 30]) {
    const path: string = `/v1/opportunities?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await get(app.baseUrl, path, { key });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    const data = res.body.data as Array<{ id: string }>;
    expect(data).toHaveLength(limit);
    for (const record of data) {
      expect(record).toEqual(byId.get(record.id));
      expect(seen.has(record.id)).toBe(false);
      seen.add(record.id);
    }
    cursor = encodeURIComponent(res.body.pagination.next_cursor ?? '');
  }
  expect(seen.size).toBe(80);
  // A short page after the long ones (a string, not the pooled buffer) parses whole.
  const short = await get(app.baseUrl, '/v1/opportunities?limit=2', { key });
  expect(short.body.data).toHaveLength(2);
  expect(Number(short.headers.get('content-length'))).toBe(Buffer.byteLength(short.text));
});
