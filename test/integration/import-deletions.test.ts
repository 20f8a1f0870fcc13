import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeRecord } from '../support/fixtures';
import { accountWithKey } from '../support/auth-app';
import { cliJson } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';
import { ROOMY } from '../support/factories';

// contract §22.10 `import`, §12: a deletion line {"id", "deleted": true} removes a stored
// record as `delete ID` does (detail 404, gone from list and count, a tombstone in the feed); a
// deletion of an id that is not stored is a bad line (number and reason, exit 1) and the other
// lines still apply, in file order.

// Each run starts a TypeScript process; on a loaded machine that takes a while.
jest.setTimeout(240_000);

let ctx: TestContext;
let key: string;
const dir = mkdtempSync(path.join(tmpdir(), 'import-deletions-'));
const records = Array.from({ length: 5 }, (_, i) => makeRecord({ title: `Role ${i}` }));
const [r0, r1, r2, r3, r4] = records.map((r) => r.id);

beforeAll(async () => {
  ctx = await createTestContext();
  ({
    key: { key },
  } = await accountWithKey(ctx.deps, { plan: 'growth', ...ROOMY }));
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

function ndjson(name: string, lines: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
}

const cli = (...args: string[]) => cliJson(args, { databaseUrl: ctx.databaseUrl });

async function get(p: string) {
  const res = await fetch(`${ctx.baseUrl}${p}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const listedIds = async () =>
  ((await get('/v1/opportunities?limit=100')).body.data as { id: string }[])
    .map((r) => r.id)
    .sort();

it('removes records by deletion lines: 404, gone from list and count, tombstones in the feed; unknown ids are bad lines', async () => {
  const first = await cli('import', ndjson('records.ndjson', records));
  expect(first.code).toBe(0);
  expect(first.report).toMatchObject({ ok: true, store: { inserted: 5, deleted: 0 } });

  const missing = randomUUID();
  const run = await cli(
    'import',
    ndjson('deletions.ndjson', [
      { id: r0, deleted: true },
      { id: missing, deleted: true },
      // A change-feed tombstone as a mirror would replay it (changed_at is ignored).
      { id: r1, deleted: true, changed_at: '2026-01-01T00:00:00Z' },
      { id: r2, deleted: false },
      { id: 'not-a-uuid', deleted: true },
      { id: r3, deleted: true, title: 'extra field' },
    ]),
  );
  expect(run.code).toBe(1);
  expect(run.report).toMatchObject({
    ok: false,
    lines: 6,
    valid: 2,
    store: { inserted: 0, updated: 0, unchanged: 0, deleted: 2 },
    sync: { deleted: 2 },
  });
  const rejected = run.report.rejected as { line: number; errors: string[] }[];
  expect(rejected.map((r) => r.line)).toEqual([2, 4, 5, 6]);
  expect(rejected[0]?.errors.join()).toContain(missing);
  expect(rejected[0]?.errors.join()).toContain('not a stored record');
  // A line that says deleted is a deletion: the reason says what a deletion holds.
  expect(rejected[3]?.errors).toEqual([
    '(deletion): a deletion line holds only id, deleted and changed_at; this one also has title',
  ]);

  expect((await get(`/v1/opportunities/${r0}`)).status).toBe(404);
  expect((await get(`/v1/opportunities/${r1}`)).status).toBe(404);
  expect((await get(`/v1/opportunities/${r2}`)).status).toBe(200);
  expect(await listedIds()).toEqual([r2, r3, r4].sort());
  expect((await get('/v1/opportunities/count')).body.count).toBe(3);

  const feed = await get('/v1/opportunities/changes?limit=100');
  const items = feed.body.data as { id: string; deleted?: boolean; changed_at: string }[];
  const tombstones = items.filter((i) => i.deleted);
  expect(tombstones.map((t) => t.id).sort()).toEqual([r0, r1].sort());
  for (const t of tombstones) {
    expect(Object.keys(t).sort()).toEqual(['changed_at', 'deleted', 'id']);
    // Timed by the import, not by the replayed line's changed_at.
    expect(t.changed_at > '2026-01-01T00:00:00Z').toBe(true);
  }
  // Each record once, at its latest state: the deleted ones only as tombstones.
  expect(items.map((i) => i.id).sort()).toEqual(records.map((r) => r.id).sort());
});

it('applies lines in file order: record then deletion removes it, deletion then record restores it', async () => {
  const again = makeRecord({ title: 'Back again' });
  const run = await cli(
    'import',
    ndjson('order.ndjson', [
      { ...records[4], title: 'Role 4 v2' },
      { id: r4, deleted: true },
      { id: r4, deleted: true },
      again,
      { id: again.id, deleted: true },
      { ...again, title: 'Back again v2' },
    ]),
  );
  // The second deletion of r4 finds nothing stored at that point of the file.
  expect(run.code).toBe(1);
  expect(run.report).toMatchObject({
    valid: 5,
    store: { inserted: 1, updated: 2, deleted: 2 },
    rejected: [{ line: 3 }],
  });
  expect((await get(`/v1/opportunities/${r4}`)).status).toBe(404);
  const detail = await get(`/v1/opportunities/${again.id}`);
  expect(detail.status).toBe(200);
  expect((detail.body.data as { title: string }).title).toBe('Back again v2');
  expect(await listedIds()).toEqual([r2, r3, again.id].sort());
});

// Each line is stored, and counted, in file order: a record given twice in one file (stored as is,
// then changed; or changed, then changed back) counted once, as its last line left it.
it('counts every record line in file order when an id comes twice', async () => {
  const stored = makeRecord({ title: 'Twice, first' });
  expect((await cli('import', ndjson('first.ndjson', [stored]))).report).toMatchObject({
    store: { inserted: 1 },
  });
  const run = await cli(
    'import',
    ndjson('twice.ndjson', [
      stored,
      { ...stored, title: 'Twice, changed' },
      { ...stored, title: 'Twice, changed again' },
      { ...stored, title: 'Twice, changed again' },
    ]),
  );
  expect(run.code).toBe(0);
  expect(run.report).toMatchObject({
    valid: 4,
    store: { inserted: 0, updated: 2, unchanged: 2, deleted: 0 },
  });
  const detail = await get(`/v1/opportunities/${stored.id}`);
  expect((detail.body.data as { title: string }).title).toBe('Twice, changed again');
});

// One batch's records were all written before its deletions: the change feed listed every
// tombstone of a batch after its records, whatever their places in the file (contract §12.2).
it("takes the change positions in the file's order, deletions among records", async () => {
  const [d1, d2, n1, n2, n3] = Array.from({ length: 5 }, (_, i) =>
    makeRecord({ title: `Mix ${i}` }),
  );
  if (!d1 || !d2 || !n1 || !n2 || !n3) throw new Error('five records');
  expect((await cli('import', ndjson('mix-before.ndjson', [d1, d2]))).code).toBe(0);
  const lines = [n1, { id: d1.id, deleted: true }, n2, { id: d2.id, deleted: true }, n3];
  const run = await cli('import', ndjson('mix.ndjson', lines));
  expect(run.code).toBe(0);
  const { rows } = await ctx.deps.pool.query<{ id: string }>(
    'SELECT id FROM opportunities WHERE id = ANY($1::uuid[]) ORDER BY sync_seq',
    [lines.map((l) => l.id)],
  );
  expect(rows.map((r) => r.id)).toEqual(lines.map((l) => l.id));
});
