import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importNdjson } from '../../src/service/import-records';
import { reindex, syncIncremental } from '../../src/search/sync';
import { aliasTargets, ensureIndex } from '../../src/search/index-manager';
import { liveMappingVersion, MAPPING_VERSION } from '../../src/search/index-definition';
import { deleteOpportunities, upsertOpportunities } from '../../src/store/opportunity-repo';
import { cliJson } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';
import { CLASSES, classified, makeRecord, storeAndIndex } from '../support/fixtures';

let ctx: TestContext;
const dir = mkdtempSync(path.join(tmpdir(), 'import-'));

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

async function indexedIds(query: Record<string, unknown> = { match_all: {} }): Promise<string[]> {
  const res = await ctx.deps.search.search({
    index: ctx.deps.alias,
    body: { query, size: 1000, _source: false, sort: [{ id: 'asc' }] } as never,
  });
  return (res.body.hits.hits as { _id: string }[]).map((h) => h._id).sort();
}

describe('import', () => {
  it('reports bad lines by number and reason, writes nothing of them, imports the rest', async () => {
    const good = [makeRecord(), makeRecord()];
    const badTaxonomy = makeRecord({
      ...classified(CLASSES.snowflake),
      job_family: 'software_engineering',
    });
    const badRate = makeRecord({ rate: { min: 10, max: 5, currency: 'USD', unit: 'hour' } });
    const file = path.join(dir, 'mixed.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify(good[0]),
        '{not json',
        JSON.stringify(badTaxonomy),
        '',
        JSON.stringify({ ...good[1], unexpected: 1 }),
        JSON.stringify(badRate),
        JSON.stringify(good[1]),
      ].join('\n'),
    );
    const report = await importNdjson(ctx.deps, file);
    expect(report.ok).toBe(false);
    expect(report.valid).toBe(2);
    expect(report.rejected.map((r) => r.line)).toEqual([2, 3, 5, 6]);
    expect(report.rejected[0]?.errors).toEqual(['not valid JSON']);
    expect(report.rejected[1]?.errors.join()).toMatch(/job_family: must be 'data'/);
    expect(report.rejected[2]?.errors.join()).toMatch(/unexpected/);
    expect(report.rejected[3]?.errors.join()).toMatch(/min must not exceed max/);
    const stored = await ctx.deps.pool.query('SELECT id FROM opportunities');
    expect(stored.rows.map((r) => r.id).sort()).toEqual(good.map((g) => g.id).sort());
    expect(await indexedIds()).toEqual(good.map((g) => g.id).sort());
  });

  it('is idempotent: the same file twice changes nothing', async () => {
    const records = [makeRecord(), makeRecord()];
    const file = path.join(dir, 'twice.ndjson');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const first = await importNdjson(ctx.deps, file);
    expect(first.store).toEqual({ inserted: 2, updated: 0, unchanged: 0, deleted: 0 });
    const seqBefore = await ctx.deps.pool.query(
      'SELECT id, sync_seq FROM opportunities ORDER BY id',
    );
    const second = await importNdjson(ctx.deps, file);
    expect(second.store).toEqual({ inserted: 0, updated: 0, unchanged: 2, deleted: 0 });
    expect(second.sync?.indexed).toBe(0);
    const seqAfter = await ctx.deps.pool.query(
      'SELECT id, sync_seq FROM opportunities ORDER BY id',
    );
    expect(seqAfter.rows).toEqual(seqBefore.rows);
  });

  // Each batch took its numbers and positions in the order a hash join emitted its rows once the
  // planner took the table for one worth scanning (many small rows): the change feed listed one
  // import in that order.
  it('a batch takes its record numbers and change positions in its own order', async () => {
    const { pool } = ctx.deps;
    const filler = await pool.query<{ id: string }>(
      `INSERT INTO opportunities (id, record, content_hash, liveness_status, first_seen, changed_at,
          taxonomy_version, record_num)
       SELECT gen_random_uuid(), '{}', '', 'live', now(), now(), 'v1', nextval('opportunity_record_num')
         FROM generate_series(1, 3000) RETURNING id`,
    );
    await pool.query('ANALYZE opportunities');
    const batch = Array.from({ length: 100 }, () => makeRecord());
    const ids = batch.map((r) => r.id);
    try {
      await upsertOpportunities(pool, batch, 'v1');
      const inOrder = async (column: string) =>
        (
          await pool.query<{ id: string }>(
            `SELECT id FROM opportunities WHERE id = ANY($1::uuid[]) ORDER BY ${column}`,
            [ids],
          )
        ).rows.map((r) => r.id);
      expect(await inOrder('sync_seq')).toEqual(ids);
      expect(await inOrder('record_num')).toEqual(ids);
    } finally {
      // Never synced: the suite's later syncs must not meet them.
      await pool.query('DELETE FROM opportunities WHERE id = ANY($1::uuid[])', [
        [...filler.rows.map((r) => r.id), ...ids],
      ]);
      await pool.query('ANALYZE opportunities');
    }
  });

  it('stores a record whose id is written in upper case under its lower-case id', async () => {
    // A uuid's hex digits may be written in either case (RFC 9562); the API serves ids in lower
    // case, and the store's check compares the record's id with its key's text.
    const before = makeRecord();
    const upper = makeRecord();
    const file = path.join(dir, 'upper.ndjson');
    writeFileSync(
      file,
      [JSON.stringify(before), JSON.stringify({ ...upper, id: upper.id.toUpperCase() })].join('\n'),
    );
    const report = await importNdjson(ctx.deps, file);
    expect(report).toMatchObject({ ok: true, valid: 2, store: { inserted: 2 } });
    const stored = await ctx.deps.pool.query<{ id: string; record_id: string }>(
      "SELECT id, record->>'id' AS record_id FROM opportunities WHERE id = ANY($1)",
      [[before.id, upper.id]],
    );
    expect(stored.rows.map((r) => [r.id, r.record_id]).sort()).toEqual(
      [before.id, upper.id].sort().map((id) => [id, id]),
    );
    expect(await indexedIds({ term: { id: upper.id } })).toEqual([upper.id]);
  });

  it('refuses a country that is not an assigned ISO code, which no country filter could ask for', async () => {
    const good = makeRecord();
    const unassigned = makeRecord();
    const file = path.join(dir, 'countries.ndjson');
    const withCountry = (r: typeof good, country: string) => ({
      ...r,
      location: { ...r.location, country },
    });
    writeFileSync(
      file,
      [withCountry(good, 'GB'), withCountry(unassigned, 'XX')]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const report = await importNdjson(ctx.deps, file);
    expect(report).toMatchObject({ ok: false, valid: 1, store: { inserted: 1 } });
    expect(report.rejected).toEqual([
      { line: 2, errors: [expect.stringMatching(/^location\.country: ISO 3166-1 alpha-2/)] },
    ]);
  });

  it('runs as the CLI with --json and a non-zero exit status when a line is bad', async () => {
    const file = path.join(dir, 'cli.ndjson');
    const record = makeRecord();
    writeFileSync(file, `${JSON.stringify(record)}\n{"id": 1}\n`);
    const failure = await cliJson(['import', file], { databaseUrl: ctx.databaseUrl });
    expect(failure.code).toBe(1);
    const report = failure.report as { rejected: { line: number }[] };
    expect(report).toMatchObject({ ok: false, valid: 1, store: { inserted: 1 } });
    expect(report.rejected[0].line).toBe(2);
    expect(await indexedIds({ term: { id: record.id } })).toEqual([record.id]);
  });
});

describe('index', () => {
  it('matches every descendant class with one family term on the ancestors', async () => {
    const family = [
      makeRecord(classified(CLASSES.snowflake)),
      makeRecord(classified(CLASSES.etl)),
      makeRecord(classified(CLASSES.dataScientist)),
    ];
    const other = makeRecord(classified(CLASSES.javaBackend));
    await storeAndIndex(ctx.deps, [...family, other]);
    const ids = await indexedIds({ term: { taxonomy_ancestors: 'data' } });
    for (const r of family) expect(ids).toContain(r.id);
    expect(ids).not.toContain(other.id);
    const sub = await indexedIds({ term: { taxonomy_ancestors: 'data_engineering' } });
    expect(sub).toEqual(expect.arrayContaining([family[0]?.id, family[1]?.id]));
    expect(sub).not.toContain(family[2]?.id);
  });

  it('incremental sync picks up changes and deletions, and a second sync finds nothing', async () => {
    const a = makeRecord();
    const b = makeRecord();
    await storeAndIndex(ctx.deps, [a, b]);
    await upsertOpportunities(
      ctx.deps.pool,
      [{ ...a, liveness_status: 'dead' }],
      ctx.deps.taxonomy.version,
    );
    await deleteOpportunities(ctx.deps.pool, [b.id]);
    const result = await syncIncremental(ctx.deps);
    expect(result).toMatchObject({ indexed: 1, deleted: 1 });
    expect(await indexedIds({ term: { liveness_status: 'dead' } })).toContain(a.id);
    expect(await indexedIds({ term: { id: b.id } })).toEqual([]);
    expect(await syncIncremental(ctx.deps)).toMatchObject({ indexed: 0, deleted: 0 });
  });

  it('two concurrent syncs index each change once', async () => {
    await upsertOpportunities(
      ctx.deps.pool,
      [makeRecord(), makeRecord(), makeRecord()],
      ctx.deps.taxonomy.version,
    );
    const [x, y] = await Promise.all([syncIncremental(ctx.deps), syncIncremental(ctx.deps)]);
    expect(x.indexed + y.indexed).toBe(3);
  });

  it('reindex swaps the alias atomically while a loop of reads sees no error', async () => {
    await storeAndIndex(
      ctx.deps,
      Array.from({ length: 50 }, () => makeRecord()),
    );
    const total = Number(
      (await ctx.deps.pool.query('SELECT count(*) FROM opportunities WHERE deleted_at IS NULL'))
        .rows[0].count,
    );
    const before = await aliasTargets(ctx.deps.search, ctx.deps.alias);
    let reading = true;
    let reads = 0;
    const counts = new Set<number>();
    const loop = (async () => {
      while (reading) {
        const res = await ctx.deps.search.count({ index: ctx.deps.alias });
        counts.add(res.body.count);
        reads++;
      }
    })();
    const result = await reindex(ctx.deps);
    reading = false;
    await loop;
    const after = await aliasTargets(ctx.deps.search, ctx.deps.alias);
    expect(after).toEqual([result.index]);
    expect(after).not.toEqual(before);
    expect(result.indexed).toBe(total);
    expect(reads).toBeGreaterThan(0);
    expect([...counts]).toEqual([total]);
  });

  it('a retired index keeps its mapping version: the alias can be moved back to it', async () => {
    await storeAndIndex(ctx.deps, [makeRecord()]);
    const { search, alias } = ctx.deps;
    const [old] = await aliasTargets(search, alias);
    if (!old) throw new Error('no index behind the alias');
    const result = await reindex(ctx.deps);
    // An operator's rollback within the grace: the alias back on the retired index.
    await search.indices.updateAliases({
      body: {
        actions: [{ remove: { index: result.index, alias } }, { add: { index: old, alias } }],
      },
    });
    // Retiring dates the index; it must not make it read as an index of the first mapping.
    expect(await liveMappingVersion(search, alias)).toBe(MAPPING_VERSION);
    const meta = (await search.indices.getMapping({ index: old })).body[old]?.mappings?._meta;
    expect(meta).toEqual({ mapping_version: MAPPING_VERSION, retired_at: expect.any(String) });
  });

  it('reindex keeps the old index for a grace: a search pinned to it still succeeds', async () => {
    await storeAndIndex(ctx.deps, [makeRecord(), makeRecord()]);
    const [old] = await aliasTargets(ctx.deps.search, ctx.deps.alias);
    if (!old) throw new Error('no index behind the alias');
    const total = (await ctx.deps.search.count({ index: ctx.deps.alias })).body.count;

    const result = await reindex(ctx.deps);
    expect(result.index).not.toBe(old);
    // A search that resolved the alias just before the swap runs on the old index.
    const pinned = await ctx.deps.search.count({ index: old });
    expect(pinned.body.count).toBe(total);
    // A later sync within the grace keeps it too.
    await syncIncremental(ctx.deps);
    expect((await ctx.deps.search.indices.exists({ index: old })).body).toBe(true);

    // Once the grace is over, the next sync deletes it, never the index behind the alias.
    await syncIncremental({ ...ctx.deps, env: { ...ctx.deps.env, RETIRED_INDEX_GRACE_MS: 0 } });
    expect((await ctx.deps.search.indices.exists({ index: old })).body).toBe(false);
    expect(await aliasTargets(ctx.deps.search, ctx.deps.alias)).toEqual([result.index]);
    expect((await ctx.deps.search.count({ index: ctx.deps.alias })).body.count).toBe(total);
  });
});

describe('the live index lost within the grace of a reindex', () => {
  // The first version, retired by the reindex and kept for its grace, used to be taken back: its
  // records as they were before the reindex (a record deleted since was listed and charged again)
  // until the sync had filled it anew.
  let own: TestContext;
  beforeAll(async () => {
    own = await createTestContext();
  });
  afterAll(() => own.close());

  it('the sync makes a new index, never the retired first one', async () => {
    const { search, alias } = own.deps;
    const gone = makeRecord();
    const kept = makeRecord();
    await storeAndIndex(own.deps, [gone, kept]);
    const [first] = await aliasTargets(search, alias);
    expect(first).toBe(`${alias}__000001`);
    const live = (await reindex(own.deps)).index;
    await deleteOpportunities(own.deps.pool, [gone.id]);
    await syncIncremental(own.deps);
    await search.indices.delete({ index: live });

    // Processes that find it lost at once (a start, a follower) agree on one index.
    const made = await Promise.all([1, 2, 3].map(() => ensureIndex(search, alias)));
    expect(new Set(made).size).toBe(1);
    expect(await aliasTargets(search, alias)).toEqual([made[0]]);
    await syncIncremental(own.deps);
    const [now] = await aliasTargets(search, alias);
    expect(now).not.toBe(first);
    expect(now).not.toBe(live);
    const ids = await search.search({ index: alias, body: { query: { match_all: {} } } });
    expect(ids.body.hits.hits.map((h) => h._id)).toEqual([kept.id]);
    // The retired index is left to its grace, as it was.
    expect((await search.indices.exists({ index: first ?? '' })).body).toBe(true);
  });
});
