import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Opportunity } from '../../src/domain/record';
import { deleteRecords } from '../../src/service/delete-records';
import { importNdjson } from '../../src/service/import-records';
import { syncIncremental } from '../../src/search/sync';
import { topUpAccount } from '../../src/store/account-repo';
import { accountWithKey, newReader, ROOMY, type Reader } from '../support/factories';
import { makeRecord } from '../support/fixtures';
import {
  copyProblems,
  itemProblem,
  pendingFor,
  RECORD_FIELDS,
  sameJson,
  StoreModel,
  chargeFor,
  usageFigures,
  type AccountModel,
  type Charge,
  type ConsumerModel,
  type Row,
} from '../support/fuzz/feed-model';
import { fuzzSettings } from '../support/fuzz/settings';
import { createTestContext, type TestContext } from '../support/harness';
import { scratchDir } from '../support/scratch-dir';

// contract §12 (the change feed), model-based: random sequences of imports (new records, changes,
// changes to an older changed_at, unchanged lines, deletion lines, restores; some with
// `--no-sync`), `sync` and `delete` runs, top-ups, and feed reads by one or two integrations, each
// with its own cursor (opened with no parameters or with `since`), reading pages of random `limit`,
// sometimes with `fields`, sometimes going back to an earlier cursor. The model
// (test/support/fuzz/feed-model.ts) says, from the contract alone, exactly which changes each page
// must hold, in which order and in which state, whether `has_more`, and what the page consumes or
// whether it is a 402 (§12.3, §16). Whenever a consumer has read everything there is, and at the
// end of a run, its copy must equal the store; the detail endpoint must serve what the copies
// hold; usage and the ledger must hold exactly what the pages delivered. Refused cursors (§8.4,
// §12.1.4, §12.4) are tried along the way. The store is the file's one test database, shared by
// the runs: each run takes its model of the store from the database, then keeps it itself.
// `npm test` runs a fixed seed and few runs; FUZZ_RUNS and FUZZ_SEED widen or replay it (the seed
// is printed). A failure ends the property at once (no shrinking: each replay writes to the store);
// the counterexample names the run's setup and commands.

const {
  runs: RUNS,
  seed: SEED,
  timeout: TIMEOUT,
} = fuzzSettings({ runs: 20, seed: 20261130, msPerRun: 15_000 });

let ctx: TestContext;
/** Reads detail for the end-of-run checks, in an account of its own (the consumers' ledgers stay theirs). */
let checker: Reader;
const dir = scratchDir('feed-model-');

beforeAll(async () => {
  process.stderr.write(`[feed model] seed ${SEED}, ${RUNS} runs (FUZZ_SEED / FUZZ_RUNS)\n`);
  ctx = await createTestContext({ POSTGRES_TIMEOUT_MS: '60000', OPENSEARCH_TIMEOUT_MS: '60000' });
  checker = await newReader(ctx.deps);
});
afterAll(async () => {
  process.stderr.write(`[feed model] ${JSON.stringify(stats)}\n`);
  await ctx?.close();
});

/** What the runs exercised, printed at the end (a generator that stops reaching a case shows). */
const stats = {
  runs: 0,
  reads: 0,
  items: 0,
  tombstones: 0,
  inserted: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  restored: 0,
  refusals: 0,
  /** Pages refused with 402 (the account could not pay for their new records). */
  refusedPages: 0,
  rewinds: 0,
  topUps: 0,
  /** Changes delivered to a `since` consumer only because they came after its horizon. */
  pastHorizon: 0,
};

// ---------------------------------------------------------------------------------------------
// Records.

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** changed_at of ordinary changes: September and October 2026. */
const RECENT = Array.from(
  { length: 12 },
  (_, i) => Date.UTC(2026, 8, 2) + i * 5 * DAY + i * 3_600_000,
);
/** An older changed_at: July and August 2026, before every `since` the consumers take. */
const OLD = Array.from({ length: 6 }, (_, i) => Date.UTC(2026, 6, 3) + i * 9 * DAY);
/** A changed_at ahead of the clock, and of the last `since` (2027-01-01) too. */
const FUTURE = [Date.UTC(2027, 5, 1), Date.UTC(2026, 11, 31, 23, 59, 59, 999)];
/**
 * The consumers' `since`: before every changed_at, in the middle of them, and after every one
 * and after now (a tombstone, timed by its deletion, is before it).
 */
const SINCES = ['2026-09-01', '2026-10-01T00:00:00Z', '2027-01-01T00:00:00.000Z'] as const;

interface Spec {
  title: string;
  level: Opportunity['level'];
  rate: number | null;
  liveness: Opportunity['liveness_status'];
  at: number;
  when: 'recent' | 'old' | 'future';
  tags: string[];
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  title: fc.constantFrom('Data Engineer', 'React Developer', 'Rôle contractuel', 'ETL Developer'),
  level: fc.constantFrom('junior', 'mid', 'senior', 'lead'),
  rate: fc.option(fc.constantFrom(50, 80.5, 100), { freq: 3 }),
  liveness: fc.constantFrom('live', 'unknown', 'dead'),
  at: fc.nat({ max: RECENT.length - 1 }),
  when: fc.constantFrom('recent', 'recent', 'old', 'old', 'future'),
  tags: fc.subarray(['dbt', 'snowflake', 'k8s', 'react']),
});

let idCounter = 0;
/** A fresh id (deterministic within a test run: the database is the file's own). */
const nextId = () => `00000000-0000-4000-8000-${(++idCounter).toString(16).padStart(12, '0')}`;

/** A record for `id` from a spec; a change keeps the record's first_seen. */
function build(id: string, spec: Spec, base?: Opportunity): Opportunity {
  const pool = spec.when === 'old' ? OLD : spec.when === 'future' ? FUTURE : RECENT;
  const changed = iso(pool[spec.at % pool.length] ?? 0);
  const firstSeen = base?.first_seen ?? changed;
  return makeRecord({
    id,
    title: spec.title,
    level: spec.level,
    rate:
      spec.rate === null
        ? null
        : { min: spec.rate, max: spec.rate + 20, currency: 'USD', unit: 'hour' },
    liveness_status: spec.liveness,
    last_verified_live_at: spec.liveness === 'live' ? firstSeen : null,
    specializations: spec.tags,
    first_seen: firstSeen,
    changed_at: changed,
  });
}

// ---------------------------------------------------------------------------------------------
// The model and the real system of one run.

interface Model {
  store: StoreModel;
  accounts: AccountModel[];
  clients: ConsumerModel[];
  /** Ids written in this run (checked against detail at its end). */
  touched: Set<string>;
  /** Request ids the run sent on feed and list calls, by account id. */
  sent: Map<string, string[]>;
}
type Real = TestContext;

let requestCounter = 0;
const requestIdFor = (model: Model, account: AccountModel) => {
  const id = `feed-model-${++requestCounter}`;
  model.sent.set(account.accountId, [...(model.sent.get(account.accountId) ?? []), id]);
  return id;
};

interface Reply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are probed freely
  body: any;
}

async function call(url: string, key: string, requestId: string): Promise<Reply> {
  const res = await fetch(url, { headers: { 'X-API-Key': key, 'X-Request-ID': requestId } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** The usage headers of a response (contract §18.1), as numbers. */
const usageOf = (h: Headers) => ({
  new: Number(h.get('x-service-new-opportunity-count')),
  included: Number(h.get('x-service-included-new-opportunity-count')),
  payg: Number(h.get('x-service-payg-new-opportunity-count')),
  charge: Number(h.get('x-service-usage-charge-millicents')),
  used: Number(h.get('x-service-opportunity-used')),
  limit: Number(h.get('x-service-opportunity-limit')),
  remaining: Number(h.get('x-service-opportunity-remaining')),
  balance: Number(h.get('x-service-balance-millicents')),
  credits: Number(h.get('x-service-prepaid-opportunity-credits')),
});

/** What the usage headers must say after a response that delivered `charge` (or nothing). */
const expectedUsage = (account: AccountModel, fresh: number, charge: Charge | null) => ({
  new: charge ? fresh : 0,
  included: charge?.included ?? 0,
  payg: charge?.payg ?? 0,
  charge: charge?.millicents ?? 0,
  ...usageFigures(account),
});

/**
 * A page that delivers `ids` (in this order) to an account: the new ones consume (included first,
 * then the wallet), repeats are free (contract §16.1, §16.3). Returns the charge, or null when
 * the account cannot cover it (402, nothing delivered: §16.4); applies it to the model.
 */
function deliver(
  account: AccountModel,
  ids: readonly string[],
): { fresh: number; charge: Charge | null } {
  const fresh = [...new Set(ids)].filter((id) => !account.delivered.has(id));
  const charge = chargeFor(account, fresh.length);
  if (!charge.covered) return { fresh: fresh.length, charge: null };
  for (const id of fresh) account.delivered.add(id);
  account.balance -= charge.millicents;
  return { fresh: fresh.length, charge };
}

/** The store as the database holds it, in feed order: the model a run starts from. */
async function storeFromDatabase(): Promise<StoreModel> {
  const { rows } = await ctx.deps.pool.query<{
    id: string;
    record: Opportunity;
    deleted_at: Date | null;
  }>('SELECT id, record, deleted_at FROM opportunities ORDER BY sync_seq');
  const store = new StoreModel();
  store.visible = Number(
    (
      await ctx.deps.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM opportunities
          WHERE sync_seq <= (SELECT visible_watermark FROM sync_state WHERE index_alias = $1)`,
        [ctx.deps.alias],
      )
    ).rows[0]?.n ?? 0,
  );
  for (const r of rows) {
    const at = r.deleted_at?.getTime() ?? 0;
    store.rows.set(r.id, {
      id: r.id,
      seq: ++store.seq,
      record: r.deleted_at ? null : r.record,
      last: r.record,
      deletedWithin: r.deleted_at ? [at, at] : null,
    });
  }
  return store;
}

/** One feed read by a consumer, checked against the model, then applied to its copy and ledger. */
async function read(
  m: Model,
  c: ConsumerModel,
  options: { limit: number | null; fields: readonly string[] | null; restate: boolean },
): Promise<{ hasMore: boolean; refused: boolean }> {
  const { fields } = options;
  // contract §6.6: 25 when not given.
  const limit = options.limit ?? 25;
  const params = new URLSearchParams();
  if (!c.opened) {
    if (c.since) params.set('since', c.since.text);
    // The horizon: every change the feed shows now (contract §12.1.1).
    c.horizon = c.since ? m.store.visible : null;
  } else {
    params.set('cursor', c.cursor ?? '');
    // contract §12.1.4: the cursor's own since beside it, spelled another way, is the same since.
    if (options.restate && c.since) params.set('since', respell(c.since.text));
  }
  if (options.limit !== null) params.set('limit', String(limit));
  if (fields) params.set('fields', fields.join(','));
  const pending = pendingFor(m.store, c);
  const expected = pending.slice(0, limit);
  const requestId = requestIdFor(m, c.account);
  const res = await call(
    `${ctx.baseUrl}/v1/opportunities/changes?${params.toString()}`,
    c.account.key,
    requestId,
  );
  const where = `${c.name} read ?${params.toString()}`;
  const account = c.account;
  // contract §12.3, §16: records new to the account consume, repeats and tombstones are free; a
  // page the account cannot pay for is 402 and delivers nothing.
  const records = expected.filter((r) => r.record !== null).map((r) => r.id);
  const { fresh, charge } = deliver(account, records);
  if (charge === null) {
    stats.refusedPages++;
    expect({ where, status: res.status, code: res.body?.error?.code }).toEqual({
      where,
      status: 402,
      code: 'insufficient_balance',
    });
    expect({ where, ...usageOf(res.headers) }).toEqual({
      where,
      ...expectedUsage(account, 0, null),
    });
    return { hasMore: true, refused: true };
  }
  if (res.status !== 200) throw new Error(`${where}: ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as {
    data: Record<string, unknown>[];
    pagination: { returned: number; next_cursor: unknown; has_more: boolean; limit: number };
    meta: { request_id: string; applied_filters: Record<string, unknown> };
  };
  stats.reads++;

  // contract §4.6, §12.4: the envelope; the cursor is never null.
  expect(Object.keys(body).sort()).toEqual(['data', 'meta', 'pagination']);
  expect(body.pagination.returned).toBe(body.data.length);
  expect(body.pagination.limit).toBe(limit);
  expect(typeof body.pagination.next_cursor).toBe('string');
  expect(String(body.pagination.next_cursor).length).toBeGreaterThan(0);
  expect(body.meta.request_id).toBe(requestId);
  expect(res.headers.get('x-request-id')).toBe(requestId);
  if (c.since) {
    // contract §4.6, §6.13: since, carried by the cursor, as an ISO string in UTC.
    expect(Object.keys(body.meta.applied_filters)).toEqual(['since']);
    const shown = String(body.meta.applied_filters.since);
    expect(shown).toMatch(/Z$/);
    expect(Date.parse(shown)).toBe(c.since.ms);
  } else {
    expect(body.meta.applied_filters).toEqual({});
  }

  // contract §12.1, §12.2: exactly the next changes of this consumer's feed, in the order they
  // were made, each once at its latest state; has_more says whether more exist now.
  const got = body.data.map((i) => String(i.id));
  const want = expected.map((r) => r.id);
  if (!sameJson(got, want)) {
    throw new Error(
      `${where}: the page holds ${JSON.stringify(got)}, the model ${JSON.stringify(want)} ` +
        `(pending ${JSON.stringify(pending.map((r) => r.id))})`,
    );
  }
  expect(new Set(got).size).toBe(got.length);
  for (const [n, item] of body.data.entries()) {
    const row = expected[n] as Row;
    const problem = itemProblem(item, row, fields);
    if (problem) throw new Error(`${where}: ${problem}`);
  }
  expect({ where, has_more: body.pagination.has_more }).toEqual({
    where,
    has_more: pending.length > limit,
  });

  // contract §12.3, §16.1, §18: what the page consumed, and the account's figures after it.
  expect({ where, ...usageOf(res.headers) }).toEqual({
    where,
    ...expectedUsage(account, fresh, charge),
  });

  // The consumer applies the page.
  for (const [n, item] of body.data.entries()) {
    const row = expected[n] as Row;
    c.copy.set(row.id, { item, fields: row.record === null ? null : fields });
    if (row.record === null) stats.tombstones++;
    if (c.horizon !== null && row.seq > c.horizon && c.since) {
      const [from] = row.record ? [Date.parse(row.record.changed_at)] : (row.deletedWithin ?? [0]);
      if (from < c.since.ms) stats.pastHorizon++;
    }
  }
  stats.items += body.data.length;
  c.position = expected[expected.length - 1]?.seq ?? c.position;
  c.cursor = String(body.pagination.next_cursor);
  c.cursors.push({ cursor: c.cursor, position: c.position });
  c.opened = true;
  // Caught up: the copy is the store (as far as this consumer's feed goes).
  if (!body.pagination.has_more) expect(copyProblems(m.store, c)).toEqual([]);
  return { hasMore: body.pagination.has_more, refused: false };
}

/** The same instant as `since`, written another way (contract §6.5). */
function respell(text: string): string {
  const ms = Date.parse(text);
  const shifted = new Date(ms + 2 * 3_600_000).toISOString().slice(0, 23);
  return `${shifted}+02:00`;
}

// ---------------------------------------------------------------------------------------------
// Commands.

type Line =
  | { kind: 'new'; spec: Spec }
  | { kind: 'change'; pick: number; spec: Spec }
  | { kind: 'same'; pick: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'restore'; pick: number };

const lineArb: fc.Arbitrary<Line> = fc.oneof(
  { weight: 4, arbitrary: specArb.map((spec) => ({ kind: 'new' as const, spec })) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('change' as const), pick: fc.nat(), spec: specArb }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('same' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }) },
);

/** Picks a row among this run's first, so that runs work on their own records mostly. */
function pickFrom(rows: Row[], pick: number, touched: Set<string>): Row | undefined {
  const mine = rows.filter((r) => touched.has(r.id));
  const from = mine.length && pick % 4 !== 0 ? mine : rows;
  return from.length ? from[pick % from.length] : undefined;
}

/** `import FILE` of NDJSON lines (docs/operations.md): records, changes, deletions, restores. */
class ImportCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly lines: Line[],
    /** `import --no-sync`: stored, not indexed; the feed shows it after the next sync. */
    readonly noSync: boolean,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    // The lines are resolved against the model as it stands at each line of the file.
    const text: string[] = [];
    const effects: { id: string; put: Opportunity | null }[] = [];
    const draft = new StoreModel();
    for (const row of m.store.rows.values()) draft.rows.set(row.id, { ...row });
    draft.seq = m.store.seq;
    for (const line of this.lines) {
      if (line.kind === 'new') {
        const record = build(nextId(), line.spec);
        effects.push({ id: record.id, put: record });
        draft.put(record);
        text.push(JSON.stringify(record));
        continue;
      }
      const target = pickFrom(
        line.kind === 'restore' ? draft.deleted() : draft.live(),
        line.pick,
        m.touched,
      );
      if (!target) continue;
      if (line.kind === 'delete') {
        effects.push({ id: target.id, put: null });
        draft.remove(target.id, [0, 0]);
        text.push(JSON.stringify({ id: target.id, deleted: true }));
        continue;
      }
      const record =
        line.kind === 'change'
          ? build(target.id, line.spec, target.last)
          : line.kind === 'same'
            ? (target.record ?? target.last)
            : target.last;
      effects.push({ id: target.id, put: record });
      draft.put(record);
      text.push(JSON.stringify(record));
    }
    if (!text.length) return;
    const file = path.join(dir, `import-${requestCounter}-${idCounter}.ndjson`);
    writeFileSync(file, `${text.join('\n')}\n`);
    const t0 = Date.now();
    const report = await importNdjson(ctx.deps, file, undefined, { sync: !this.noSync });
    const t1 = Date.now();
    const counts = { inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
    for (const effect of effects) {
      m.touched.add(effect.id);
      if (effect.put === null) {
        const outcome = m.store.remove(effect.id, [t0, t1]);
        if (outcome === 'deleted') counts.deleted++;
        continue;
      }
      const wasDeleted = m.store.rows.get(effect.id)?.record === null;
      const outcome = m.store.put(effect.put);
      if (outcome === 'inserted' || outcome === 'updated' || outcome === 'unchanged')
        counts[outcome]++;
      if (wasDeleted) stats.restored++;
    }
    if (!this.noSync) m.store.sync();
    stats.inserted += counts.inserted;
    stats.updated += counts.updated;
    stats.unchanged += counts.unchanged;
    stats.deleted += counts.deleted;
    expect({ ok: report.ok, rejected: report.rejected, store: report.store }).toEqual({
      ok: true,
      rejected: [],
      store: counts,
    });
  }
  toString = () => `import(${JSON.stringify(this.lines)}${this.noSync ? ', --no-sync' : ''})`;
}

/** `delete ID`, sometimes with an id that is not a stored record beside it. */
class DeleteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly unknown: 'none' | 'deleted' | 'never',
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const target = pickFrom(m.store.live(), this.pick, m.touched);
    if (!target) return;
    const other =
      this.unknown === 'never'
        ? '00000000-0000-4000-9000-000000000000'
        : this.unknown === 'deleted'
          ? m.store.deleted()[0]?.id
          : undefined;
    const t0 = Date.now();
    const report = await deleteRecords(ctx.deps, other ? [target.id, other] : [target.id]);
    const t1 = Date.now();
    m.touched.add(target.id);
    expect(m.store.remove(target.id, [t0, t1])).toBe('deleted');
    m.store.sync();
    stats.deleted++;
    expect({ deleted: report.deleted, unknown: report.unknown }).toEqual({
      deleted: [target.id],
      unknown: other ? [other] : [],
    });
  }
  toString = () => `delete(${this.pick}, unknown: ${this.unknown})`;
}

/** `sync`: indexes what changed since the last one; the feed shows it. */
class SyncCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model): Promise<void> {
    await syncIncremental(ctx.deps);
    m.store.sync();
  }
  toString = () => 'sync';
}

class ReadCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: number,
    /** Null: no `limit` parameter. */
    readonly limit: number | null,
    readonly fields: string[] | null,
    readonly restate: boolean,
    /** When the page says has_more false, read again at once: nothing new may come. */
    readonly confirm: boolean,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const c = m.clients[this.client % m.clients.length] as ConsumerModel;
    const { hasMore } = await read(m, c, this);
    if (!hasMore && this.confirm) {
      const before = c.account.delivered.size;
      const again = await read(m, c, { ...this, fields: null });
      expect(again.hasMore).toBe(false);
      expect(c.account.delivered.size).toBe(before);
    }
  }
  toString = () =>
    `read(client ${this.client}, limit ${this.limit}, fields ${JSON.stringify(this.fields)}, restate ${this.restate}, confirm ${this.confirm})`;
}

/**
 * A cursor the feed must refuse with 400 malformed_cursor (contract §8.4, §12.1.4, §12.4), and
 * nothing consumed: another since beside the consumer's cursor, a list cursor on the feed, the
 * feed's cursor on list, another account's feed cursor.
 */
class RefusedCursorCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: number,
    readonly how: 'other-since' | 'list-on-feed' | 'feed-on-list' | 'other-account',
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const c = m.clients[this.client % m.clients.length] as ConsumerModel;
    if (!c.opened || c.cursor === null) return;
    let payer = c.account;
    const feedUrl = `${ctx.baseUrl}/v1/opportunities/changes`;
    let res: Reply;
    if (this.how === 'other-since') {
      const other = c.since ? iso(c.since.ms + 1) : SINCES[0];
      const q = new URLSearchParams({ cursor: c.cursor, since: other });
      res = await call(`${feedUrl}?${q.toString()}`, payer.key, requestIdFor(m, payer));
    } else if (this.how === 'feed-on-list') {
      const q = new URLSearchParams({ cursor: c.cursor });
      res = await call(
        `${ctx.baseUrl}/v1/opportunities?${q.toString()}`,
        payer.key,
        requestIdFor(m, payer),
      );
    } else if (this.how === 'other-account') {
      const other = m.accounts.find((a) => a !== payer);
      if (!other) return;
      payer = other;
      const q = new URLSearchParams({ cursor: c.cursor });
      res = await call(`${feedUrl}?${q.toString()}`, payer.key, requestIdFor(m, payer));
    } else {
      // A list cursor of the same account: its first page is metered like any list page. Synced
      // first, so that the list (the index) and the model's store agree.
      await syncIncremental(ctx.deps);
      m.store.sync();
      const list = await call(
        `${ctx.baseUrl}/v1/opportunities?limit=1`,
        payer.key,
        requestIdFor(m, payer),
      );
      const first = m.store.live().length ? [listFirst(m.store.live())] : [];
      const { fresh, charge } = deliver(payer, first);
      expect({ status: list.status, ...usageOf(list.headers) }).toEqual({
        status: charge ? 200 : 402,
        ...expectedUsage(payer, fresh, charge),
      });
      if (!charge) return;
      expect((list.body.data as { id: string }[]).map((r) => r.id)).toEqual(first);
      const cursor = list.body.pagination.next_cursor as string | null;
      if (cursor === null) return;
      const q = new URLSearchParams({ cursor });
      res = await call(`${feedUrl}?${q.toString()}`, payer.key, requestIdFor(m, payer));
    }
    stats.refusals++;
    expect({ how: this.how, status: res.status, error: res.body?.error?.code }).toEqual({
      how: this.how,
      status: 400,
      error: 'malformed_cursor',
    });
    expect(res.body.error.details).toEqual({ parameter: 'cursor', reason: expect.any(String) });
    expect(usageOf(res.headers)).toEqual(expectedUsage(payer, 0, null));
  }
  toString = () => `refused(client ${this.client}, ${this.how})`;
}

/** The first record of the list (contract §8.1): freshness descending, then id ascending. */
function listFirst(live: Row[]): string {
  const key = (r: Row) => r.record?.published_at ?? r.record?.first_seen ?? '';
  const sorted = [...live].sort((a, b) =>
    key(a) === key(b) ? (a.id < b.id ? -1 : 1) : Date.parse(key(b)) - Date.parse(key(a)),
  );
  return sorted[0]?.id ?? '';
}

/** A consumer goes back to a cursor it was given before: the feed replays from there. */
class RewindCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: number,
    readonly back: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const c = m.clients[this.client % m.clients.length] as ConsumerModel;
    const to = c.cursors[this.back % Math.max(1, c.cursors.length)];
    if (!to) return;
    stats.rewinds++;
    c.cursor = to.cursor;
    c.position = to.position;
  }
  toString = () => `rewind(client ${this.client}, ${this.back})`;
}

/** `account top-up`: purchased credit; the next call's figures show it (contract §16.3, §18). */
class TopUpCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly account: number,
    readonly millicents: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const account = m.accounts[this.account % m.accounts.length] as AccountModel;
    await topUpAccount(ctx.deps.pool, account.accountId, this.millicents);
    account.balance += this.millicents;
    stats.topUps++;
  }
  toString = () => `topUp(account ${this.account}, ${this.millicents})`;
}

const fieldsArb = fc.option(fc.subarray([...RECORD_FIELDS], { minLength: 1, maxLength: 4 }), {
  freq: 3,
});

const readArb = fc
  .tuple(
    fc.nat({ max: 1 }),
    fc.oneof(
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 100 }),
      fc.constant<number | null>(null),
    ),
    fieldsArb,
    fc.boolean(),
    fc.boolean(),
  )
  .map((args) => new ReadCommand(...args));

const commandsArb = fc.commands(
  [
    fc
      .tuple(fc.array(lineArb, { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([lines, noSync]) => new ImportCommand(lines, noSync)),
    fc.constant(new SyncCommand()),
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom('none' as const, 'none' as const, 'deleted' as const, 'never' as const),
      )
      .map(([pick, unknown]) => new DeleteCommand(pick, unknown)),
    readArb,
    readArb,
    fc
      .tuple(
        fc.nat({ max: 1 }),
        fc.constantFrom(
          'other-since' as const,
          'list-on-feed' as const,
          'feed-on-list' as const,
          'other-account' as const,
        ),
      )
      .map(([client, how]) => new RefusedCursorCommand(client, how)),
    fc.tuple(fc.nat({ max: 1 }), fc.nat()).map(([client, back]) => new RewindCommand(client, back)),
    fc
      .tuple(fc.nat({ max: 1 }), fc.constantFrom(400, 1_200, 4_000))
      .map(([account, millicents]) => new TopUpCommand(account, millicents)),
  ],
  { maxCommands: 16, size: '+1' },
);

/** How an account pays (contract §15.3, §18.4). */
type Billing =
  { model: 'plan'; allowance: number; balance: number } | { model: 'wallet'; balance: number };

interface Setup {
  billing: Billing[];
  clients: { account: number; since: number | null }[];
  drainLimit: number;
}

const ROOMY_BALANCE = 10_000_000;

const billingArb: fc.Arbitrary<Billing> = fc.oneof(
  fc.constant<Billing>({ model: 'plan', allowance: 1_000_000, balance: 0 }),
  fc.record({
    model: fc.constant('plan' as const),
    allowance: fc.nat({ max: 6 }),
    balance: fc.constantFrom(0, 400, 2_000, 2_399),
  }),
  fc.record({
    model: fc.constant('wallet' as const),
    balance: fc.constantFrom(0, 1_200, 4_000, ROOMY_BALANCE),
  }),
);

/** Index of the `since` that is the run's start (SINCES holds the fixed ones before it). */
const SINCE_RUN_START = SINCES.length;
/** Index of the `since` equal to a record's changed_at, and one a millisecond after it. */
const SINCE_AT_RECORD = SINCES.length + 1;
const SINCE_AFTER_RECORD = SINCES.length + 2;

const setupArb: fc.Arbitrary<Setup> = fc.record({
  billing: fc.array(billingArb, { minLength: 1, maxLength: 2 }),
  clients: fc.array(
    fc.record({
      account: fc.nat({ max: 1 }),
      since: fc.option(fc.nat({ max: SINCE_AFTER_RECORD }), { freq: 2 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  drainLimit: fc.constantFrom(3, 17, 100),
});

async function startRun(setup: Setup): Promise<Model> {
  stats.runs++;
  // A run that failed may have left changes unsynced.
  await syncIncremental(ctx.deps);
  const accounts: AccountModel[] = [];
  for (const [n, billing] of setup.billing.entries()) {
    const { accountId, key } = await accountWithKey(ctx.deps, {
      ...ROOMY,
      page_size_override: 100,
      balance_millicents: billing.balance,
      ...(billing.model === 'plan'
        ? { plan: 'growth', allowance_override: billing.allowance }
        : { plan: 'free', billing_model: 'legacy_wallet' }),
    });
    accounts.push({
      name: `account ${n} (${JSON.stringify(billing)})`,
      billing: billing.model,
      accountId,
      key: key.key,
      delivered: new Set(),
      allowance: billing.model === 'plan' ? billing.allowance : 0,
      balance: billing.balance,
    });
  }
  // After every deletion so far (their tombstones are before it), before this run's.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const runStart = iso(Date.now());
  await new Promise((resolve) => setTimeout(resolve, 5));
  const sinceText = (n: number): string =>
    n === SINCE_RUN_START
      ? runStart
      : n === SINCE_AT_RECORD
        ? iso(RECENT[4] ?? 0)
        : n === SINCE_AFTER_RECORD
          ? iso((RECENT[4] ?? 0) + 1)
          : (SINCES[n] ?? SINCES[0]);
  const clients = setup.clients.map((spec, n): ConsumerModel => {
    const text = spec.since === null ? null : sinceText(spec.since);
    return {
      name: `client ${n} (since ${text ?? 'none'})`,
      account: accounts[spec.account % accounts.length] as AccountModel,
      since: text === null ? null : { text, ms: Date.parse(text) },
      horizon: null,
      opened: false,
      position: 0,
      cursor: null,
      cursors: [],
      copy: new Map(),
    };
  });
  return {
    store: await storeFromDatabase(),
    accounts,
    clients,
    touched: new Set(),
    sent: new Map(),
  };
}

/** The end of a run: every consumer reads to the end; then copies, detail, usage and ledger. */
async function finishRun(m: Model, setup: Setup): Promise<void> {
  await syncIncremental(ctx.deps);
  m.store.sync();
  // Credit enough to read everything there is.
  for (const account of m.accounts) {
    await topUpAccount(ctx.deps.pool, account.accountId, ROOMY_BALANCE);
    account.balance += ROOMY_BALANCE;
  }
  for (const c of m.clients) {
    for (let pages = 0; ; pages++) {
      if (pages > 500) throw new Error(`${c.name}: the feed never ends`);
      const { hasMore } = await read(m, c, {
        limit: setup.drainLimit,
        fields: null,
        restate: false,
      });
      if (!hasMore) break;
    }
    expect(copyProblems(m.store, c)).toEqual([]);
  }
  // contract §5.5: detail serves what the feed delivered (a deleted record: 404).
  for (const id of m.touched) {
    const row = m.store.rows.get(id) as Row;
    const res = await call(
      `${ctx.baseUrl}/v1/opportunities/${id}`,
      checker.key,
      `check-${++requestCounter}`,
    );
    if (row.record === null) {
      expect({ id, status: res.status, code: res.body?.error?.code }).toEqual({
        id,
        status: 404,
        code: 'opportunity_not_found',
      });
      continue;
    }
    expect({ id, status: res.status }).toEqual({ id, status: 200 });
    expect(sameJson(res.body.data, row.record)).toBe(true);
    for (const c of m.clients) {
      const held = c.copy.get(id);
      if (held && held.fields === null) expect(sameJson(held.item, res.body.data)).toBe(true);
    }
  }
  for (const account of m.accounts) {
    // contract §5.7, §4.5: usage agrees with what the pages delivered.
    const usage = await call(`${ctx.baseUrl}/v1/usage`, account.key, `usage-${++requestCounter}`);
    expect(usage.status).toBe(200);
    const figures = usageFigures(account);
    expect({
      opportunities: usage.body.opportunities,
      balance: usage.body.balance_millicents,
      credits: usage.body.prepaid_credits,
    }).toEqual({
      opportunities: { limit: figures.limit, used: figures.used, remaining: figures.remaining },
      balance: figures.balance,
      credits: figures.credits,
    });
    // The ledger: exactly the delivered ids, and every request id the run sent is spent (§17.2.1).
    const { rows } = await ctx.deps.pool.query<{ id: string }>(
      'SELECT opportunity_id::text AS id FROM metering_deliveries WHERE account_id = $1',
      [account.accountId],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...account.delivered].sort());
    const spent = await ctx.deps.pool.query<{ id: string }>(
      'SELECT request_id AS id FROM metering_request_ids WHERE account_id = $1',
      [account.accountId],
    );
    expect(spent.rows.map((r) => r.id).sort()).toEqual(
      [...(m.sent.get(account.accountId) ?? [])].sort(),
    );
  }
  // The model's store is the database's (its order too): the harness's own check.
  const db = await storeFromDatabase();
  expect(db.ordered().map((r) => [r.id, r.record !== null])).toEqual(
    m.store.ordered().map((r) => [r.id, r.record !== null]),
  );
  for (const row of db.live()) {
    expect(sameJson(row.record, m.store.rows.get(row.id)?.record)).toBe(true);
  }
}

it(
  'every consumer of the change feed keeps an exact copy of the store, and pays for new records only',
  async () => {
    await fc.assert(
      fc.asyncProperty(setupArb, commandsArb, async (setup, commands) => {
        const model = await startRun(setup);
        await fc.asyncModelRun(() => ({ model, real: ctx }), commands);
        await finishRun(model, setup);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  },
  TIMEOUT,
);

// ---------------------------------------------------------------------------------------------
// Minimal reproducers of what the property found.

/** The whole feed from the start, as a fresh consumer reads it (its own account). */
async function wholeFeed(): Promise<Record<string, unknown>[]> {
  const { key } = await accountWithKey(ctx.deps, {
    ...ROOMY,
    plan: 'growth',
    allowance_override: 1_000_000,
  });
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  for (;;) {
    const q = new URLSearchParams({ limit: '100' });
    if (cursor) q.set('cursor', cursor);
    const res = await call(
      `${ctx.baseUrl}/v1/opportunities/changes?${q.toString()}`,
      key.key,
      `repro-${++requestCounter}`,
    );
    expect(res.status).toBe(200);
    items.push(...(res.body.data as Record<string, unknown>[]));
    cursor = res.body.pagination.next_cursor as string;
    if (!res.body.pagination.has_more) return items;
  }
}

function importLines(name: string, lines: unknown[]) {
  const file = path.join(dir, `${name}.ndjson`);
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return importNdjson(ctx.deps, file);
}

// The deletion lines of one import took their change positions in the order the store's UPDATE
// met the rows (table or index order), not in the file's: found by the property above.
it('the deletion lines of one import come in the feed in the order of the file (contract §12.2)', async () => {
  // a before b by id and in the table; the file deletes b, then a.
  const a = makeRecord({ id: 'dddddddd-0000-4000-8000-000000000001', title: 'Deletion order A' });
  const b = makeRecord({ id: 'dddddddd-0000-4000-8000-000000000002', title: 'Deletion order B' });
  await importLines('order-1', [a, b]);
  const report = await importLines('order-2', [
    { id: b.id, deleted: true },
    { id: a.id, deleted: true },
  ]);
  expect(report.store.deleted).toBe(2);
  const order = (await wholeFeed()).map((i) => i.id).filter((id) => id === a.id || id === b.id);
  expect(order).toEqual([b.id, a.id]);
});

it('the tombstones of one delete come in the feed in the order of its ids (contract §12.2)', async () => {
  const a = makeRecord({ id: 'dddddddd-0000-4000-8000-000000000011', title: 'Delete order A' });
  const b = makeRecord({ id: 'dddddddd-0000-4000-8000-000000000012', title: 'Delete order B' });
  await importLines('delete-order', [a, b]);
  const report = await deleteRecords(ctx.deps, [b.id, a.id]);
  expect(report.deleted).toEqual([b.id, a.id]);
  const order = (await wholeFeed()).map((i) => i.id).filter((id) => id === a.id || id === b.id);
  expect(order).toEqual([b.id, a.id]);
});
