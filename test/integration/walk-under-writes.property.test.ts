import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { Opportunity } from '../../src/domain/record';
import { realWorld } from '../support/fixture-world';
import {
  INSTANTS,
  Inventory,
  expectedPage,
  idOf,
  inventoryArb,
  matches,
  positionOf,
  queryArb,
  recordOf,
  scheduleArb,
  type InventorySpec,
  type Position,
  type WriteBatch,
} from '../support/fuzz/walk-model';
import { fuzzSettings } from '../support/fuzz/settings';
import { freshness, qs, type Query } from '../support/read-fixture';
import { get, type Json } from '../support/read-http';
import type { World } from '../support/worlds';

// A list walked page by page while the inventory changes between its pages, through the real
// store and sync (Postgres, OpenSearch, Redis; the writes are those of `import` and `delete`).
// contract §8.2: cursors do not freeze the inventory; §8.5: paging visits every matching record
// exactly once, and in freshness order no write to other records moves a record. So every record
// that matched and was not written during the walk appears exactly once; each page is the
// matching records after the cursor's keyset position (§8.1, §8.3) in the inventory as it is
// then, each record as it is then; the walk ends. Metering (§16): the account's used figure is
// the number of distinct records it was delivered, repeats free. unseen_only (§11.1) never
// returns a record twice; max_new (§11.2) cuts a page before its (N+1)-th new record. ETag
// (§13): a page revalidated after a write gets 304 only when it would be served unchanged.
// Model and writes: test/support/fuzz/walk-model.ts. FUZZ_RUNS and FUZZ_SEED run more.

const {
  runs: RUNS,
  seed: SEED,
  timeout: TIMEOUT,
} = fuzzSettings({ runs: 25, seed: 20261130, msPerRun: 8_000 });

let world: World;
let run = 0;

beforeAll(async () => {
  process.stderr.write(`[walk-under-writes] seed ${SEED}, ${RUNS} runs (FUZZ_SEED / FUZZ_RUNS)\n`);
  world = await realWorld([]);
}, 120_000);
afterAll(async () => {
  const counts = [...seen].sort().map(([label, n]) => `${label}: ${n}`);
  process.stderr.write(`[walk-under-writes] ${counts.join(', ')}\n`);
  await world?.close();
});

/** What the runs reached, printed at the end. */
const seen = new Map<string, number>();
const tally = (label: string, n = 1) => seen.set(label, (seen.get(label) ?? 0) + n);

type Mode = 'plain' | 'unseen' | 'maxNew';

interface Case {
  inventory: InventorySpec[];
  query: Query;
  limit: number;
  /** Page sizes of the first pages, then `limit`: not bound to the cursor (contract §8.3). */
  limits: number[];
  mode: Mode;
  /** Records delivered before the walk (detail reads), by index into the inventory. */
  preDeliver: number[];
  /** max_new of each page in turn (maxNew mode), then none. */
  maxNews: number[];
  schedule: WriteBatch[];
  /** `fields` (contract §7.6) of every page, or none: all fields. */
  fields: string[] | null;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  inventory: inventoryArb(),
  query: queryArb,
  limit: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 25 })),
  limits: fc.array(fc.integer({ min: 1, max: 25 }), { maxLength: 3 }),
  mode: fc.constantFrom<Mode>('plain', 'plain', 'unseen', 'maxNew'),
  preDeliver: fc.array(fc.nat(59), { maxLength: 8 }),
  maxNews: fc.array(fc.nat(4), { maxLength: 6 }),
  schedule: scheduleArb,
  fields: fc.option(fc.subarray(['title', 'level', 'published_at', 'location'], { minLength: 1 }), {
    freq: 2,
  }),
});

/** A record as a page with `fields` shows it: `id` and the named fields (contract §7.6). */
function shown(c: Case, r: Opportunity | undefined): Partial<Opportunity> | undefined {
  if (!r || c.fields === null) return r;
  const out: Record<string, unknown> = { id: r.id };
  for (const f of c.fields) out[f] = r[f as keyof Opportunity];
  return out;
}

const USED = 'x-service-opportunity-used';
const NEW = 'x-service-new-opportunity-count';

/** What varies from one page's request to the next. */
interface PageAsk {
  limit: number;
  maxNew: number | undefined;
}

function listPath(c: Case, cursor: string | null, ask: PageAsk): string {
  const { limit, maxNew } = ask;
  const q: Query = { ...c.query, limit: String(limit) };
  if (c.mode === 'unseen') q.unseen_only = 'true';
  if (maxNew !== undefined) q.max_new = String(maxNew);
  if (c.fields !== null) q.fields = c.fields.join(',');
  if (cursor !== null) q.cursor = cursor;
  return `/v1/opportunities?${qs(q)}`;
}

/** contract §8.1 within one page: freshness descending, then id ascending. */
function expectInOrder(records: readonly Opportunity[], where: object): void {
  for (let i = 1; i < records.length; i++) {
    const a = records[i - 1] as Opportunity;
    const b = records[i] as Opportunity;
    const ok = freshness(a) > freshness(b) || (freshness(a) === freshness(b) && a.id < b.id);
    if (!ok) expect({ ...where, order: [a.id, b.id] }).toEqual({ ...where, order: 'in order' });
  }
}

/** The state a walk keeps: what was delivered, and its pages. */
interface Walk {
  c: Case;
  inv: Inventory;
  key: string;
  accountId: string;
  delivered: Set<string>;
  /** Every id served by the walk's pages, in order, repeats included. */
  walked: string[];
  /** Ids served again by a revalidation that was answered 200. */
  revalidated: string[];
  position: Position | null;
  lastPage: string[];
  /** The last page's request: path, the position it started from, its ETag and body. */
  last?: { path: string; from: Position | null; ask: PageAsk; etag: string; body: Json['body'] };
  /** Initial matching ids still matching and present after every batch. */
  matchedAlways: Set<string>;
}

/** A 200 list answer delivered `ids`: the ledger's figures must follow (contract §16.1, §18.1). */
function meter(w: Walk, res: Json, ids: readonly string[], where: object): void {
  const fresh = new Set(ids.filter((id) => !w.delivered.has(id)));
  for (const id of ids) w.delivered.add(id);
  expect({ ...where, used: res.headers.get(USED), new: res.headers.get(NEW) }).toEqual({
    ...where,
    used: String(w.delivered.size),
    new: String(fresh.size),
  });
}

/** Applies a batch through the real store and sync, then revalidates the last page if told. */
async function write(w: Walk, batch: WriteBatch, pageNo: number): Promise<void> {
  const { put, remove } = w.inv.apply(batch.ops, {
    position: w.position,
    seen: w.delivered,
    lastPage: w.lastPage,
  });
  if (put.length > 0) await world.put(put);
  if (remove.length > 0) {
    const report = await world.remove(remove);
    expect(report.deleted.sort()).toEqual([...remove].sort());
  }
  tally('writes', put.length + remove.length);
  for (const id of [...w.matchedAlways]) {
    const r = w.inv.records.get(id);
    if (!r || !matches(w.c.query, r)) w.matchedAlways.delete(id);
  }
  const last = w.last;
  if (!batch.revalidate || !last) return;
  // contract §13: 304 exactly when the page would be served as the client holds it, and it is all
  // repeats (it is: the walk was delivered it). Under max_new=0 the page is the cut one.
  const now = expectedPage(w.inv, w.c.query, last.from, last.ask.limit, {
    delivered: w.delivered,
    unseenOnly: w.c.mode === 'unseen',
    maxNew: last.ask.maxNew,
  });
  const same =
    now.hasMore === last.body.pagination.has_more &&
    isDeepStrictEqual(
      now.ids.map((id) => shown(w.c, w.inv.records.get(id))),
      last.body.data,
    );
  const res = await get(world.baseUrl, last.path, {
    key: w.key,
    headers: { 'If-None-Match': last.etag },
  });
  const where = { revalidated: pageNo, path: last.path, same };
  tally(`revalidate ${res.status} (${same ? 'unchanged' : 'changed'})`);
  expect({ ...where, status: res.status }).toEqual({ ...where, status: same ? 304 : 200 });
  if (res.status !== 200) return;
  const ids = (res.body.data as Opportunity[]).map((r) => r.id);
  expect({ ...where, ids, has_more: res.body.pagination.has_more }).toEqual({
    ...where,
    ids: now.ids,
    has_more: now.hasMore,
  });
  expect({ ...where, etagChanged: res.headers.get('etag') !== last.etag }).toEqual({
    ...where,
    etagChanged: true,
  });
  meter(w, res, ids, where);
  w.last = { ...last, etag: String(res.headers.get('etag')), body: res.body };
  w.revalidated.push(...ids);
}

/** One walk of a case to its end; the writes made between its pages as the schedule says. */
async function walk(c: Case): Promise<void> {
  run++;
  const initial = c.inventory.map((s) =>
    recordOf(idOf(run, s.idNumber), INSTANTS[s.slot] as number, s.traits),
  );
  const inv = new Inventory(run, initial);
  await world.put(initial);
  const reader = await world.newReader();
  const w: Walk = {
    c,
    inv,
    key: reader.key,
    accountId: reader.accountId,
    delivered: new Set(),
    walked: [],
    revalidated: [],
    position: null,
    lastPage: [],
    matchedAlways: new Set(initial.filter((r) => matches(c.query, r)).map((r) => r.id)),
  };
  try {
    if (c.mode !== 'plain') {
      for (const i of c.preDeliver) {
        const id = (initial[i % initial.length] as Opportunity).id;
        const res = await get(world.baseUrl, `/v1/opportunities/${id}`, { key: w.key });
        expect({ detail: id, status: res.status }).toEqual({ detail: id, status: 200 });
        meter(w, res, [id], { detail: id });
      }
    }
    const preDelivered = new Set(w.delivered);
    let cursor: string | null = null;
    let batch = 0;
    for (let pageNo = 0; ; pageNo++) {
      for (let b = c.schedule[batch]; b && b.afterPage <= pageNo; b = c.schedule[++batch]) {
        await write(w, b, pageNo);
      }
      const ask: PageAsk = {
        limit: c.limits[pageNo] ?? c.limit,
        maxNew: c.mode === 'maxNew' ? c.maxNews[pageNo] : undefined,
      };
      const path = listPath(c, cursor, ask);
      const want = expectedPage(inv, c.query, w.position, ask.limit, {
        delivered: w.delivered,
        unseenOnly: c.mode === 'unseen',
        maxNew: ask.maxNew,
      });
      const res = await get(world.baseUrl, path, { key: w.key });
      const where = { run, page: pageNo, path: path.replace(/cursor=[^&]*/, 'cursor=…') };
      expect({ ...where, status: res.status }).toEqual({ ...where, status: 200 });
      const data = res.body.data as Opportunity[];
      const ids = data.map((r) => r.id);
      tally('pages');
      if (want.cut) tally('pages cut by max_new');
      // In order by the records as stored now (a page with `fields` may not show their dates); one
      // no longer stored is the next check's.
      expectInOrder(
        data.flatMap((r) => inv.records.get(r.id) ?? []),
        where,
      );
      // Each page is the matching records after the cursor's position, as they are now.
      expect({ ...where, ids, has_more: res.body.pagination.has_more }).toEqual({
        ...where,
        ids: want.ids,
        has_more: want.hasMore,
      });
      for (const r of data)
        expect({ ...where, record: r }).toEqual({
          ...where,
          record: shown(c, inv.records.get(r.id)),
        });
      expect(res.body.pagination.has_more).toBe(res.body.pagination.next_cursor !== null);
      meter(w, res, ids, where);
      w.walked.push(...ids);
      w.lastPage = ids;
      expect({ ...where, limit: res.body.pagination.limit }).toEqual({
        ...where,
        limit: ask.limit,
      });
      w.last = {
        path,
        from: w.position,
        ask,
        etag: String(res.headers.get('etag')),
        body: res.body,
      };
      const lastRecord = inv.records.get(ids[ids.length - 1] ?? '');
      if (lastRecord) w.position = positionOf(lastRecord);
      cursor = res.body.pagination.next_cursor as string | null;
      if (cursor === null) break;
      if (pageNo > 300) throw new Error('the walk does not end');
    }
    checkCompleteness(w, preDelivered);
    // contract §16.1: the ledger holds each record delivered once, whatever the repeats.
    expect({ run, ledger: await world.delivered(w.accountId) }).toEqual({
      run,
      ledger: w.delivered.size,
    });
    const usage = await get(world.baseUrl, '/v1/usage', { key: w.key });
    expect({ run, used: usage.body?.opportunities?.used }).toEqual({
      run,
      used: w.delivered.size,
    });
  } finally {
    const ids = [...inv.records.keys()];
    if (ids.length > 0) await world.remove(ids);
  }
}

/** contract §8.5 and §11.1 over the whole walk. */
function checkCompleteness(w: Walk, preDelivered: ReadonlySet<string>): void {
  const times = new Map<string, number>();
  // Under unseen_only a revalidation answered 200 delivers what the walk then leaves out.
  const served = w.c.mode === 'unseen' ? [...w.walked, ...w.revalidated] : w.walked;
  for (const id of served) times.set(id, (times.get(id) ?? 0) + 1);
  // Records never written during the walk, matching throughout: exactly once (none that the
  // account already had, under unseen_only). Records only touched in place (a title) likewise.
  for (const id of w.matchedAlways) {
    const fates = w.inv.fates.get(id) ?? new Set();
    if ([...fates].some((f) => f !== 'touched')) continue;
    const want = w.c.mode === 'unseen' && preDelivered.has(id) ? 0 : 1;
    tally(fates.size === 0 ? 'stable records' : 'touched in place');
    const where = { run, id, fates: [...fates] };
    expect({ ...where, times: times.get(id) ?? 0 }).toEqual({ ...where, times: want });
  }
  // What became of the records that moved: contract §8 leaves it open, so it is only counted.
  for (const [id, fates] of w.inv.fates) {
    if (fates.has('moved') && !fates.has('deleted') && !fates.has('inserted')) {
      const matching = w.inv.records.get(id);
      const still = matching !== undefined && matches(w.c.query, matching);
      tally(
        `moved (${w.c.mode}, ${still ? 'matching at the end' : 'not matching at the end'}) served ${times.get(id) ?? 0}x`,
      );
    }
  }
  for (const [id, n] of times) {
    if (n < 2) continue;
    const fates = [...(w.inv.fates.get(id) ?? [])];
    tally(`repeated in one walk (${w.c.mode}, ${fates.join('+')})`);
    // unseen_only returns only records not yet delivered: never one twice (contract §11.1). A
    // record that moved across the position, from the part walked to the part ahead, may come
    // again: §8 neither promises nor forbids it (records may change between pages, §8.2.3).
    const allowed = w.c.mode !== 'unseen' && fates.includes('moved');
    const where = { run, id, times: n, mode: w.c.mode, fates };
    expect({ ...where, allowed }).toEqual({ ...where, allowed: true });
  }
}

describe('a list walk while the inventory changes (contract §8, §11, §13, §16)', () => {
  it(
    'every stable record once, pages as the inventory then is, the ledger exact, the walk ends',
    () => fc.assert(fc.asyncProperty(caseArb, walk), { seed: SEED, numRuns: RUNS }),
    TIMEOUT,
  );

  it('a page revalidated after a write: 304 unless the write is on the page (contract §13)', async () => {
    run++;
    const traits = { level: 'senior', remote: true, live: true } as const;
    const records = [0, 1, 2, 3, 4, 5].map((i) =>
      recordOf(idOf(run, (i + 1) * 4096), INSTANTS[5 - i] as number, {
        ...traits,
        published: i % 2 === 0,
      }),
    );
    const [, onPage, , , elsewhere] = records as [Opportunity, Opportunity, ...Opportunity[]];
    await world.put(records);
    const { key } = await world.newReader();
    try {
      const path = '/v1/opportunities?limit=3';
      const first = await get(world.baseUrl, path, { key });
      expect((first.body.data as Opportunity[]).map((r) => r.id)).toEqual(
        records.slice(0, 3).map((r) => r.id),
      );
      const revalidate = (etag: string | null) =>
        get(world.baseUrl, path, { key, headers: { 'If-None-Match': String(etag) } });
      expect((await revalidate(first.headers.get('etag'))).status).toBe(304);
      // A record of the next page changes: this page is the same.
      await world.put([
        recordOf(
          (elsewhere as Opportunity).id,
          INSTANTS[1] as number,
          { ...traits, published: true },
          1,
        ),
      ]);
      expect((await revalidate(first.headers.get('etag'))).status).toBe(304);
      // A record on the page changes (its title only): served again, free, under a new tag.
      const changed = recordOf(
        onPage.id,
        INSTANTS[4] as number,
        { ...traits, published: false },
        2,
      );
      await world.put([changed]);
      const again = await revalidate(first.headers.get('etag'));
      expect({
        status: again.status,
        changed: (again.body?.data as Opportunity[] | undefined)?.[1],
        etagChanged: again.headers.get('etag') !== first.headers.get('etag'),
        used: again.headers.get(USED),
        new: again.headers.get(NEW),
      }).toEqual({ status: 200, changed, etagChanged: true, used: '3', new: '0' });
      expect((await revalidate(again.headers.get('etag'))).status).toBe(304);
    } finally {
      await world.remove(records.map((r) => r.id));
    }
  });
});
