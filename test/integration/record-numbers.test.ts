import { deleteOpportunities, upsertOpportunities } from '../../src/store/opportunity-repo';
import { makeRecord } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// Every record has a stable integer (migration 009), the key of the bitmap
// exclusion of new_count and unseen_only. It is given once, kept through updates, deletion and
// re-import, and an import draws numbers only for ids it has not seen (the range is 31 bits).

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const numbers = async (): Promise<Map<string, number>> => {
  const { rows } = await ctx.deps.pool.query<{ id: string; record_num: number }>(
    'SELECT id, record_num FROM opportunities',
  );
  return new Map(rows.map((r) => [r.id, r.record_num]));
};
const upsert = (records: ReturnType<typeof makeRecord>[]) =>
  upsertOpportunities(ctx.deps.pool, records, ctx.deps.taxonomy.version);

it('numbers new records once; updates, deletions and re-imports keep the number', async () => {
  const records = Array.from({ length: 3 }, (_, i) => makeRecord({ title: `Numbered ${i}` }));
  await upsert(records);
  const first = await numbers();
  expect(new Set(first.values()).size).toBe(3);

  // The same three again (one changed) and one new: the three keep theirs, and the new one takes
  // the next number, so the unchanged and updated rows drew none.
  const [a, b, c] = records as [(typeof records)[0], (typeof records)[0], (typeof records)[0]];
  const added = makeRecord({ title: 'Numbered 3' });
  await upsert([a, { ...b, title: 'Numbered 1, changed' }, c, added]);
  const second = await numbers();
  for (const r of records) expect(second.get(r.id)).toBe(first.get(r.id));
  expect(second.get(added.id)).toBe(Math.max(...first.values()) + 1);

  await deleteOpportunities(ctx.deps.pool, [a.id]);
  await upsert([a]);
  expect((await numbers()).get(a.id)).toBe(first.get(a.id));
});
