import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { importNdjson } from '../../src/service/import-records';
import { makeRecord } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { scratchDir } from '../support/scratch-dir';
import { roomyKey } from '../support/factories';

/** The NDJSON files of this file's imports. */
const scratch = scratchDir('import-text-');

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
  const file = path.join(scratch, 'text.ndjson');
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

// contract §1.8: date-times are served in UTC. A record imported with offsets was served with them.
it('stores the date-times of a record written with offsets in UTC, the same instants', async () => {
  const base = makeRecord();
  const [source] = base.sources;
  if (!source) throw new Error('fixture has no source');
  const record = {
    ...base,
    published_at: '2026-11-15T12:00:00.500+02:00',
    first_seen: '2026-11-15T00:30:00-05:30',
    changed_at: '2026-11-16T01:00:00.123456+01:00',
    last_verified_live_at: '2026-11-16T09:00:00Z',
    sources: [{ ...source, observed_at: '2026-11-15T23:59:59+00:00' }],
  };
  const file = path.join(scratch, 'times.ndjson');
  writeFileSync(file, JSON.stringify(record));
  expect((await importNdjson(ctx.deps, file)).valid).toBe(1);
  const headers = { 'X-API-Key': await roomyKey(ctx.deps) };
  const res = await fetch(`${ctx.baseUrl}/v1/opportunities/${record.id}`, { headers });
  const { data } = (await res.json()) as { data: typeof record };
  expect(data.published_at).toBe('2026-11-15T10:00:00.500Z');
  expect(data.first_seen).toBe('2026-11-15T06:00:00Z');
  // To the millisecond (contract §6.12): a client resuming the feed from the `changed_at` it was
  // served gets the record again. Kept to the microsecond, the record was after the instant it was
  // served with, and the feed's `since`, rounded up to the next millisecond, passed over it.
  expect(data.changed_at).toBe('2026-11-16T00:00:00.123Z');
  const feed = await fetch(
    `${ctx.baseUrl}/v1/opportunities/changes?since=${encodeURIComponent(data.changed_at)}`,
    { headers },
  );
  const changes = (await feed.json()) as { data: Array<{ id: string }> };
  expect(changes.data.map((c) => c.id)).toContain(record.id);
  const since = encodeURIComponent('2026-11-16T00:00:00.1234Z');
  const later = await fetch(`${ctx.baseUrl}/v1/opportunities/changes?since=${since}`, { headers });
  expect(
    ((await later.json()) as { data: Array<{ id: string }> }).data.map((c) => c.id),
  ).not.toContain(record.id);
  expect(data.last_verified_live_at).toBe('2026-11-16T09:00:00Z');
  expect(data.sources[0]?.observed_at).toBe('2026-11-15T23:59:59Z');
});

// The report lists the first 1,000 bad lines; it used to say nothing of the others.
it('counts every bad line, past the 1,000 it lists', async () => {
  const file = path.join(scratch, 'bad.ndjson');
  writeFileSync(file, Array.from({ length: 1005 }, () => '{bad').join('\n'));
  const report = await importNdjson(ctx.deps, file);
  expect(report.rejected).toHaveLength(1000);
  expect(report.rejected.at(-1)?.line).toBe(1000);
  expect(report.rejected_count).toBe(1005);
  expect(report.ok).toBe(false);
});

// A deletion of an id that is not stored is found when its batch is written, after the lines
// read since: 1,000 bad lines after it filled the list, and line 1 was counted but not listed.
it('lists the first 1,000 bad lines by number, a deletion found unknown at its write included', async () => {
  const file = path.join(scratch, 'order.ndjson');
  const unknown = JSON.stringify({ id: '7d3f4a4e-0b7c-4c53-9a55-2f3c5e1d9b21', deleted: true });
  writeFileSync(file, [unknown, ...Array.from({ length: 1000 }, () => '{bad')].join('\n'));
  const report = await importNdjson(ctx.deps, file);
  expect(report.rejected_count).toBe(1001);
  expect(report.rejected).toHaveLength(1000);
  expect(report.rejected.map((r) => r.line)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  expect(report.rejected[0]?.errors.join(' ')).toContain('is not a stored record');
});

// Lines are read as bytes (src/infra/text-lines.ts): invalid UTF-8 used to become U+FFFD, stored
// without a word; a line past V8's longest string ended the whole import with a RangeError.
it('reports a line of invalid UTF-8, and one longer than 16 MB, and imports the rest', async () => {
  const [first, last] = [makeRecord(), makeRecord()];
  const broken = Buffer.from(JSON.stringify({ ...makeRecord(), title: 'BAD__X' }));
  const at = broken.indexOf('__');
  broken[at] = 0xff;
  broken[at + 1] = 0xfe;
  const file = path.join(scratch, 'bytes.ndjson');
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`${JSON.stringify(first)}\n`),
      broken,
      Buffer.from(`\n{"title":"${'z'.repeat(17 * 1024 * 1024)}"}\n`),
      Buffer.from(JSON.stringify(last)),
    ]),
  );
  const report = await importNdjson(ctx.deps, file);
  expect(report.rejected).toEqual([
    { line: 2, errors: ['not valid UTF-8'] },
    { line: 3, errors: ['longer than 16777216 bytes'] },
  ]);
  expect(report.valid).toBe(2);
  const stored = await ctx.deps.pool.query<{ id: string }>(
    'SELECT id FROM opportunities WHERE id = ANY ($1::uuid[])',
    [[first.id, last.id]],
  );
  expect(stored.rows).toHaveLength(2);
});
