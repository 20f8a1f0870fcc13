import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importNdjson } from '../../src/service/import-records';
import { makeRecord } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';

// contract §22.10: a bad line is reported by number and reason, nothing of it is written, and the
// valid lines are imported. Text Postgres cannot store (U+0000, an unpaired surrogate) used to pass
// the record's checks and fail inside the database, failing the whole import with the database's
// message and no line number; the other lines of its batch were lost.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

it('reports a text of U+0000 or an unpaired surrogate as a bad line, and imports the rest', async () => {
  const good = [makeRecord(), makeRecord()];
  // JSON escapes, as a file would hold them: JSON.stringify writes U+0000 as \u0000 and a lone
  // surrogate as \udXXX.
  const nul = { ...makeRecord(), title: 'NUL \u0000 here' };
  const high = { ...makeRecord(), title: 'SURR \ud800' };
  const low = { ...makeRecord(), employer: 'low \udc00 alone' };
  const paired = { ...makeRecord(), title: 'emoji \ud83d\ude00 is fine' };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'import-text-')), 'text.ndjson');
  const lines = [good[0], nul, high, paired, low, good[1]].map((r) => JSON.stringify(r));
  expect(lines[1]).toContain('\\u0000');
  expect(lines[2]).toContain('\\ud800');
  writeFileSync(file, lines.join('\n'));

  const report = await importNdjson(ctx.deps, file);
  expect(report.ok).toBe(false);
  expect(report.valid).toBe(3);
  expect(report.rejected.map((r) => r.line)).toEqual([2, 3, 5]);
  expect(report.rejected[0]?.errors).toEqual([
    'title: holds U+0000 or an unpaired surrogate (not storable)',
  ]);
  expect(report.rejected[2]?.errors.join()).toMatch(/^employer: /);
  const stored = await ctx.deps.pool.query<{ id: string; title: string }>(
    'SELECT id, record->>$1 AS title FROM opportunities ORDER BY id',
    ['title'],
  );
  expect(stored.rows.map((r) => r.id).sort()).toEqual([good[0]?.id, good[1]?.id, paired.id].sort());
  expect(stored.rows.find((r) => r.id === paired.id)?.title).toBe(paired.title);
});
