import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeRecord } from '../support/fixtures';
import { cliJson } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';
import { scratchDir } from '../support/scratch-dir';
import { get, newReader, type Reader } from '../support/read-http';

// contract §22.10.3: `import FILE --no-sync` writes the store only and works while the search engine is
// unreachable; a running API (its index follower, SYNC_INTERVAL_MS) then lists the new records
// and stops listing the deleted ones, with no command run. Every text field has a bound at
// import, evidence[].value included (500).

// Each CLI run starts a TypeScript process; on a loaded machine that takes a while.
jest.setTimeout(240_000);

/** Nothing listens on port 1: the search engine is unreachable for the CLI. */
const DEAD_SEARCH = 'http://127.0.0.1:1';

let ctx: TestContext;
let reader: Reader;
const dir = scratchDir('index-follower-');

beforeAll(async () => {
  ctx = await createTestContext({ SYNC_INTERVAL_MS: '200' });
  reader = await newReader(ctx.deps);
});
afterAll(() => ctx.close());

function ndjson(name: string, lines: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return file;
}

const cli = (...args: string[]) =>
  cliJson(args, { databaseUrl: ctx.databaseUrl, env: { OPENSEARCH_URL: DEAD_SEARCH } });

const listedIds = async (): Promise<string[]> => {
  const res = await get(ctx.baseUrl, '/v1/opportunities?limit=100', { key: reader.key });
  expect(res.status).toBe(200);
  return (res.body.data as { id: string }[]).map((r) => r.id).sort();
};

/** Polls until the API lists exactly `ids` (the follower runs every 200 ms; jest bounds the wait). */
async function untilListed(ids: string[]): Promise<void> {
  const want = [...ids].sort();
  while (JSON.stringify(await listedIds()) !== JSON.stringify(want)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const count = await get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key });
  expect(count.body.count).toBe(want.length);
}

const records = Array.from({ length: 4 }, (_, i) => makeRecord({ title: `Follower ${i}` }));
const ids = records.map((r) => r.id);

it('import --no-sync with the search engine unreachable writes the store; the API then lists it', async () => {
  const { code, report } = await cli('import', ndjson('records.ndjson', records), '--no-sync');
  expect({ code, report }).toMatchObject({
    code: 0,
    report: { ok: true, valid: 4, store: { inserted: 4 }, sync: null },
  });
  await untilListed(ids);
});

it('deletions imported with --no-sync stop being listed', async () => {
  const [gone, , alsoGone] = ids;
  const lines = [
    { id: gone, deleted: true },
    { id: alsoGone, deleted: true },
  ];
  const { code, report } = await cli('import', '--no-sync', ndjson('deletions.ndjson', lines));
  expect({ code, report }).toMatchObject({ code: 0, report: { store: { deleted: 2 } } });
  await untilListed(ids.filter((id) => id !== gone && id !== alsoGone));
});

it('evidence[].value is bounded at import (500 characters), like every text field', async () => {
  const withValue = (value: string) => {
    const record = makeRecord();
    const [first] = record.evidence;
    if (!first) throw new Error('fixture has no evidence');
    return { ...record, evidence: [{ ...first, value }] };
  };
  const fits = withValue('x'.repeat(500));
  const file = ndjson('evidence.ndjson', [fits, withValue('x'.repeat(501))]);
  const { code, report } = await cli('import', file, '--no-sync');
  expect(code).toBe(1);
  expect(report).toMatchObject({ ok: false, valid: 1, store: { inserted: 1 } });
  const rejected = report.rejected as { line: number; errors: string[] }[];
  expect(rejected.map((r) => r.line)).toEqual([2]);
  expect(rejected[0]?.errors.join()).toMatch(/evidence\.0\.value/);
});
