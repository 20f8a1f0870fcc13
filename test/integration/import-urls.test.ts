import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Opportunity } from '../../src/domain/record';
import { importNdjson } from '../../src/service/import-records';
import { makeRecord } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { scratchDir } from '../support/scratch-dir';

/** The NDJSON files of this file's imports. */
const scratch = scratchDir('import-urls-');

// contract §2.7.1: URLs in records are absolute http or https URLs; import rejects any other scheme
// as a bad line (line number and reason) and writes nothing of it.

const HOSTILE = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  'data:text/html;base64,PHNjcmlwdD4=',
  'ftp://example.com/job',
  'file:///etc/passwd',
  'vbscript:msgbox(1)',
  'mailto:jobs@example.com',
  '//example.com/relative',
  '/relative/path',
  // A WHATWG parser reads these (host "x", a path with %20); an RFC 3986 client finds no host, or
  // a space where none may be.
  'https:///x',
  'https://example.com/a b',
  // zod's url() trimmed these and dropped their tabs and line breaks, and the cleaned URL was stored.
  'https://exa\tmple.com/a\nb',
  'https://example.com/x ',
  ' https://example.com/x',
  'https://example.com/a\r\nb',
  // Two parsers, two hosts: good.example for WHATWG, evil.example for an RFC 3986 client.
  'https://good.example\\@evil.example/',
];

const withUrl = (field: string, url: string) => {
  const record = makeRecord();
  if (field === 'source.url') {
    const [first, ...rest] = record.sources;
    if (!first) throw new Error('fixture has no source');
    return { ...record, sources: [{ ...first, url }, ...rest] };
  }
  return { ...record, [field]: url };
};

describe('record URL schemes (schema)', () => {
  it.each([
    'https://example.com/jobs/1',
    'http://example.com',
    'HTTPS://EXAMPLE.COM/A',
    'https://例え.jp/求人/1',
    'https://example.com:8443/x?a=1#apply',
  ])('accepts %s', (url) => {
    expect(Opportunity.safeParse(withUrl('canonical_url', url)).success).toBe(true);
  });

  it.each(
    ['canonical_url', 'application_url', 'source.url'].flatMap((f) => HOSTILE.map((u) => [f, u])),
  )('%s = %s is refused', (field, url) => {
    expect(Opportunity.safeParse(withUrl(field, url)).success).toBe(false);
  });
});

describe('import', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('reports each line with a non-http(s) URL as bad, and imports the rest', async () => {
    const good = makeRecord();
    const bad = [
      withUrl('canonical_url', 'javascript:alert(1)'),
      withUrl('application_url', 'data:text/html,<script>alert(1)</script>'),
      withUrl('source.url', 'ftp://example.com/x'),
    ];
    const file = path.join(scratch, 'urls.ndjson');
    writeFileSync(file, [good, ...bad].map((r) => JSON.stringify(r)).join('\n'));

    const report = await importNdjson(ctx.deps, file);
    expect(report.ok).toBe(false);
    expect(report.valid).toBe(1);
    expect(report.rejected.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(report.rejected[0]?.errors.join()).toMatch(/canonical_url: .*http or https/);
    expect(report.rejected[1]?.errors.join()).toMatch(/application_url: .*http or https/);
    expect(report.rejected[2]?.errors.join()).toMatch(/sources\.0\.url: .*http or https/);
    // Each reason once, though the URL fails two checks with the same words.
    for (const { errors } of report.rejected) expect(new Set(errors).size).toBe(errors.length);
    const stored = await ctx.deps.pool.query<{ id: string }>('SELECT id FROM opportunities');
    expect(stored.rows.map((r) => r.id)).toEqual([good.id]);
  });

  // contract §2.7.3: a time the store cannot hold (year 0000) was not a bad line: Postgres refused
  // it inside the batch's transaction, and the import ended with no line of the batch written.
  it('reports a date-time outside the years 0001-9999 as a bad line, and imports the rest', async () => {
    await ctx.deps.pool.query('DELETE FROM opportunities');
    const good = [makeRecord(), makeRecord()];
    const year0 = makeRecord({ published_at: '0000-06-01T00:00:00Z' });
    const file = path.join(scratch, 'years.ndjson');
    writeFileSync(file, [...good, year0].map((r) => JSON.stringify(r)).join('\n'));
    const report = await importNdjson(ctx.deps, file, undefined, { sync: false });
    expect(report).toMatchObject({ ok: false, valid: 2 });
    expect(report.rejected.map((r) => r.line)).toEqual([3]);
    expect(report.rejected[0]?.errors.join()).toMatch(/published_at: .*0001 to 9999/);
    const stored = await ctx.deps.pool.query<{ id: string }>('SELECT id FROM opportunities');
    expect(stored.rows.map((r) => r.id).sort()).toEqual(good.map((r) => r.id).sort());
  });

  // A file saved with a byte order mark (as Windows tools write them) reads its first line.
  it('takes a first line that starts with a UTF-8 byte order mark', async () => {
    const record = makeRecord();
    const file = path.join(scratch, 'bom.ndjson');
    writeFileSync(file, '\uFEFF' + JSON.stringify(record) + '\n');
    const report = await importNdjson(ctx.deps, file, undefined, { sync: false });
    expect(report).toMatchObject({ ok: true, valid: 1, rejected: [] });
  });
});
