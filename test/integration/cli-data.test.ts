import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeRecord } from '../support/fixtures';
import type { Opportunity } from '../../src/domain/record';
import { seedRecords } from '../../src/service/seed-records';
import { deleteOpportunities, upsertOpportunities } from '../../src/store/opportunity-repo';
import { aliasTargets } from '../../src/search/index-manager';
import { MIGRATIONS_DIR } from '../../src/store/migrate';
import { cliJson, runCli } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';

// contract §22.9: the data commands as an operator runs them, each printing one JSON object.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  return (await cliJson(args, { databaseUrl: ctx.databaseUrl })).report;
}

it('migrate reports an up-to-date database', async () => {
  const migrations = readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+_.+\.sql$/.test(f)).length;
  expect(await cli('migrate')).toEqual({ ok: true, applied: [], already_applied: migrations });
  // --json may come before the command too.
  const first = await runCli(['--json', 'migrate'], { databaseUrl: ctx.databaseUrl });
  expect(first.code).toBe(0);
  expect(JSON.parse(first.stdout)).toEqual({ ok: true, applied: [], already_applied: migrations });
});

it('seed is deterministic for a seed: the same run again changes nothing', async () => {
  const first = await cli('seed', '--count', '30', '--seed', '7');
  expect(first).toMatchObject({
    ok: true,
    count: 30,
    store: { inserted: 30 },
    sync: { indexed: 30 },
  });
  const again = await cli('seed', '--count', '30', '--seed', '7');
  expect(again).toMatchObject({
    store: { inserted: 0, updated: 0, unchanged: 30 },
    sync: { indexed: 0 },
  });
  const other = await cli('seed', '--count', '30', '--seed', '8');
  expect(other).toMatchObject({ store: { inserted: 30 } });
});

it('sync finds nothing new; reindex rebuilds into a new index behind the alias', async () => {
  expect(await cli('sync')).toMatchObject({ ok: true, indexed: 0, deleted: 0 });
  const before = await aliasTargets(ctx.deps.search, ctx.deps.alias);
  const result = await cli('reindex');
  expect(result).toMatchObject({ ok: true, indexed: 60, compacted: true });
  const after = await aliasTargets(ctx.deps.search, ctx.deps.alias);
  expect(after).toEqual([result.index]);
  expect(after).not.toEqual(before);
  const count = await ctx.deps.search.count({ index: ctx.deps.alias });
  expect(count.body.count).toBe(60);
});

it('seed again leaves stored records as they are: an edit stays, a deleted record stays deleted', async () => {
  const stored = await ctx.deps.pool.query<{ id: string; record: Opportunity }>(
    'SELECT id, record FROM opportunities WHERE deleted_at IS NULL ORDER BY id LIMIT 2',
  );
  const [edited, removed] = stored.rows;
  if (!edited || !removed) throw new Error('the seed above stored no records');
  const title = 'Edited by an import';
  await upsertOpportunities(
    ctx.deps.pool,
    [{ ...edited.record, title }],
    ctx.deps.taxonomy.version,
  );
  expect(await deleteOpportunities(ctx.deps.pool, [removed.id])).toEqual([removed.id]);
  const again = await seedRecords(ctx.deps, 30, 7);
  expect(again.store).toEqual({ inserted: 0, updated: 0, unchanged: 30 });
  const after = await ctx.deps.pool.query<{ id: string; title: string; deleted: boolean }>(
    `SELECT id, record->>'title' AS title, deleted_at IS NOT NULL AS deleted
     FROM opportunities WHERE id = ANY($1)`,
    [[edited.id, removed.id]],
  );
  expect(after.rows.find((r) => r.id === edited.id)).toMatchObject({ title, deleted: false });
  expect(after.rows.find((r) => r.id === removed.id)).toMatchObject({ deleted: true });
});

// Last: it stores a record the tests above do not expect.
// `npm run cli` runs in the checkout's root; a relative FILE is the operator's, from where they
// typed it (INIT_CWD), not the root's.
it('import reads a relative FILE from the directory the command was typed in', async () => {
  const here = mkdtempSync(path.join(tmpdir(), 'cli-relative-'));
  const record = makeRecord({ title: 'Relative Path Engineer' });
  writeFileSync(path.join(here, 'records.ndjson'), JSON.stringify(record) + '\n');
  const run = await cliJson(['import', 'records.ndjson', '--no-sync'], {
    databaseUrl: ctx.databaseUrl,
    env: { INIT_CWD: here },
  });
  expect(run.code).toBe(0);
  expect(run.report).toMatchObject({ ok: true, store: { inserted: 1 } });
  rmSync(here, { recursive: true, force: true });
});

// A configuration the environment gets wrong is exit status 1, as the server's; 2 is for what the
// command line gets wrong (it was 2 for both).
it('an invalid configuration is exit status 1 with its message, not a usage error (2)', async () => {
  const run = await runCli(['usage', '--account', '00000000-0000-4000-8000-000000000000'], {
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: undefined,
      OPENSEARCH_URL: undefined,
      CURSOR_SIGNING_KEYS: undefined,
    },
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('invalid configuration');
});
