import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { aliasTargets } from '../../src/search/index-manager';
import { MIGRATIONS_DIR } from '../../src/store/migrate';
import { createTestContext, TEST_CURSOR_KEYS, type TestContext } from '../support/harness';

// decisions 10: the data commands as an operator runs them, each printing one JSON object.

const run = promisify(execFile);
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('npx', ['tsx', 'src/cli/main.ts', ...args, '--json'], {
    env: {
      ...process.env,
      DATABASE_URL: ctx.databaseUrl,
      CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
      LOG_LEVEL: 'silent',
    },
  });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
}

it('migrate reports an up-to-date database', async () => {
  const migrations = readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+_.+\.sql$/.test(f)).length;
  expect(await cli('migrate')).toEqual({ ok: true, applied: [], already_applied: migrations });
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
  expect(result).toMatchObject({ ok: true, indexed: 60 });
  const after = await aliasTargets(ctx.deps.search, ctx.deps.alias);
  expect(after).toEqual([result.index]);
  expect(after).not.toEqual(before);
  const count = await ctx.deps.search.count({ index: ctx.deps.alias });
  expect(count.body.count).toBe(60);
});
