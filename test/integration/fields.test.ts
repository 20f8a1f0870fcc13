import { ChangesEnvelope } from '../../src/domain/changes-envelope';
import { deleteRecords } from '../../src/service/delete-records';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { newReader } from '../support/read-http';

// contract §7.6 `fields` on the change feed (the fast suite covers list, detail and MCP): records
// carry exactly id and the named fields, tombstones are unchanged, metering is as without fields,
// and the documented schema holds for both.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const a = makeRecord({ title: 'A' });
const b = makeRecord({ title: 'B' });
const c = makeRecord({ title: 'C' });

async function feed(query: string, key: string) {
  const res = await fetch(`${ctx.baseUrl}/v1/opportunities/changes${query}`, {
    headers: { 'X-API-Key': key },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are probed freely
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

it('records have id and the named fields, tombstones are unchanged, records are metered', async () => {
  for (const r of [a, b, c]) await storeAndIndex(ctx.deps, [r]);
  await deleteRecords(ctx.deps, [b.id]);
  const { key } = await newReader(ctx.deps);
  const res = await feed('?fields=title,changed_at', key);
  expect(res.status).toBe(200);
  expect(ChangesEnvelope.safeParse(res.body).success).toBe(true);
  const byId = new Map(
    (res.body.data as { id: string }[]).map((item) => [item.id, Object.keys(item)]),
  );
  expect(byId.get(a.id)).toEqual(['id', 'title', 'changed_at']);
  expect(byId.get(c.id)).toEqual(['id', 'title', 'changed_at']);
  expect(byId.get(b.id)).toEqual(['id', 'deleted', 'changed_at']);
  expect(res.headers.get('x-service-new-opportunity-count')).toBe('2');
});

it('an unknown field is 400 invalid_filter naming fields', async () => {
  const { key } = await newReader(ctx.deps);
  const res = await feed('?fields=title,nope', key);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({
    code: 'invalid_filter',
    details: { parameter: 'fields' },
  });
});
