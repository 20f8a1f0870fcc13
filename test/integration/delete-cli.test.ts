import { randomUUID } from 'node:crypto';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { accountWithKey } from '../support/auth-app';
import { runCli } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';
import { ROOMY } from '../support/factories';

// contract §22.9 `delete ID [ID...]` as an operator runs it: removed records are 404 in detail, gone
// from list and count (the index is synced before it returns) and tombstones in the change feed;
// unknown ids are reported, the others still deleted, and the exit status says so.

// Each run starts a TypeScript process; on a loaded machine that takes a while.
jest.setTimeout(240_000);

let ctx: TestContext;
let key: string;
const records = Array.from({ length: 4 }, (_, i) => makeRecord({ title: `Role ${i}` }));
beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, records);
  ({
    key: { key },
  } = await accountWithKey(ctx.deps, { plan: 'growth', ...ROOMY }));
});
afterAll(() => ctx.close());

const cli = (...args: string[]) => runCli(args, { databaseUrl: ctx.databaseUrl });

async function get(path: string) {
  const res = await fetch(`${ctx.baseUrl}${path}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

// A typo in a flag must not delete anything: the unknown flag used to take the first id as its
// value and the rest were deleted (`delete --dry-run A B` deleted B).
it('an unknown flag is a usage error (exit 2) and deletes nothing', async () => {
  const [, , r2, r3] = records;
  const run = await cli('delete', '--dry-run', r2?.id ?? '', r3?.id ?? '', '--json');
  expect(run.code).toBe(2);
  expect(JSON.parse(run.stdout.trim())).toMatchObject({
    ok: false,
    error: expect.stringContaining('unknown flag --dry-run') as string,
  });
  expect((await get(`/v1/opportunities/${r2?.id}`)).status).toBe(200);
  expect((await get(`/v1/opportunities/${r3?.id}`)).status).toBe(200);
});

// contract §22.9: with --json, one JSON object on stdout, an unknown command included.
it('an unknown command with --json prints one JSON object and exits 2', async () => {
  const run = await cli('bogus', '--json');
  expect(run.code).toBe(2);
  expect(JSON.parse(run.stdout.trim())).toEqual({ ok: false, error: 'unknown command: bogus' });
});

// Without --json the usage alone was printed: it did not say what was wrong.
it('an unknown command says so before the usage, and exits 2', async () => {
  const run = await cli('bogus');
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^unknown command: bogus\n\nusage: /);
});

it('deletes the known ids, reports the unknown ones and exits 1', async () => {
  const [r0, r1] = records;
  const missing = randomUUID();
  const run = await cli('delete', r0?.id ?? '', missing, 'not-a-uuid', r1?.id ?? '', '--json');
  expect(run.code).toBe(1);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? '')).toMatchObject({
    ok: false,
    deleted: [r0?.id, r1?.id],
    unknown: [missing, 'not-a-uuid'],
    sync: { deleted: 2 },
  });

  expect((await get(`/v1/opportunities/${r0?.id}`)).status).toBe(404);
  const list = await get('/v1/opportunities?limit=100');
  const listed = (list.body.data as { id: string }[]).map((r) => r.id);
  expect(listed.sort()).toEqual([records[2]?.id, records[3]?.id].sort());
  expect((await get('/v1/opportunities/count')).body.count).toBe(2);

  const feed = await get('/v1/opportunities/changes?limit=100');
  const tombstones = (feed.body.data as { id: string; deleted?: boolean }[]).filter(
    (i) => i.deleted,
  );
  expect(tombstones.map((t) => t.id).sort()).toEqual([r0?.id, r1?.id].sort());
});

it('exits 0 when every id was deleted; an id already deleted is unknown', async () => {
  const r2 = records[2]?.id ?? '';
  const ok = await cli('delete', r2, '--json');
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, deleted: [r2], unknown: [] });
  const again = await cli('delete', r2);
  expect(again.code).toBe(1);
  expect(again.stdout).toContain('"unknown"');
});

it('without an id it is a usage error (exit 2)', async () => {
  const run = await cli('delete', '--json');
  expect(run.code).toBe(2);
  expect(JSON.parse(run.stdout)).toMatchObject({ ok: false });
});
