import { KEYWORD_CASES, KEYWORD_FIXTURE, titled } from '../support/keyword-fixture';
import { idsOf, qs } from '../support/read-fixture';
import { expectError, get, listAll } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';

// contract §7 over the in-memory index (memory-text.ts): the keyword cases of the integration
// suite, relevance paging and the cursor's binding, in seconds. The index contract test holds the
// in-memory answers to OpenSearch's on the same fixture.

let app: FastApp;
let key: string;

beforeAll(async () => {
  app = await startFastApp([...KEYWORD_FIXTURE]);
  ({ key } = app.reader());
});
afterAll(() => app.close());

const read = (path: string) => get(app.baseUrl, path, { key });

it.each(KEYWORD_CASES)('%s: q=%s', async (_label, q, titles) => {
  const { records } = await listAll(app.baseUrl, key, qs({ q }), 4);
  expect(idsOf(records)).toEqual(titled(...titles));
  const counted = await read(`/v1/opportunities/count?${qs({ q })}`);
  expect(counted.body.count).toBe(titles.length);
});

it('sort=relevance: every record once, title matches first', async () => {
  const q = 'react OR engineer';
  const all = idsOf((await listAll(app.baseUrl, key, qs({ q }), 100)).records);
  const walked = idsOf((await listAll(app.baseUrl, key, qs({ q, sort: 'relevance' }), 2)).records);
  expect([...walked].sort()).toEqual([...all].sort());
  expect(new Set(walked).size).toBe(walked.length);
  expect(walked.indexOf(titled('ReactJS Frontend Developer')[0] as string)).toBeLessThan(
    walked.indexOf(titled('Frontend Wizard')[0] as string),
  );
});

it('the cursor is bound to q and sort', async () => {
  const first = await read(`/v1/opportunities?${qs({ q: 'engineer', limit: '1' })}`);
  const cursor = first.body.pagination.next_cursor as string;
  const others: Record<string, string>[] = [
    { q: 'developer' },
    { q: 'engineer', sort: 'relevance' },
  ];
  for (const other of others) {
    expectError(
      await read(`/v1/opportunities?${qs({ ...other, cursor })}`),
      400,
      'malformed_cursor',
    );
  }
});

it.each([[''], ['  '], ['a'.repeat(201)]])('q=%j is 400 invalid_filter', async (q) => {
  expectError(await read(`/v1/opportunities?${qs({ q })}`), 400, 'invalid_filter', {
    parameter: 'q',
  });
});

it('sort=relevance without q is 400 invalid_filter', async () => {
  expectError(await read('/v1/opportunities?sort=relevance'), 400, 'invalid_filter', {
    parameter: 'sort',
  });
});
