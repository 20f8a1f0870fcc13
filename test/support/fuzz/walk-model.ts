import fc from 'fast-check';
import type { Opportunity } from '../../../src/domain/record';
import { makeRecord } from '../fixtures';
import { expected, freshness, type Query } from '../read-fixture';

// A model of a list walk (contract §8) over an inventory that changes between pages: random
// records with many freshness ties, random filters, and writes (inserts, deletions, updates that
// move a record across the walk's position or in and out of the filter) stated relative to where
// the walk stands, resolved against the model's current inventory when they are applied. The
// oracle of which records match and in which order is read-fixture.ts's `expected` (contract §6,
// §8.1); the rest is keyset arithmetic on (freshness, id).

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 9, 1); // 2026-10-01T00:00:00Z
/** Few instants, some a millisecond apart: many records share one (contract §8.1's ties). */
export const INSTANTS: readonly number[] = [
  BASE,
  BASE + 1,
  BASE + HOUR,
  BASE + 2 * HOUR,
  BASE + 2 * HOUR + 999,
  BASE + 24 * HOUR,
];
const iso = (ms: number) => new Date(ms).toISOString();

/** A keyset position: the (freshness, id) of the last record a page served. */
export interface Position {
  fresh: number;
  id: string;
}

/** Strictly after `p` in list order: older, or as fresh with a greater id (contract §8.1). */
export const after = (r: Opportunity, p: Position | null): boolean => {
  if (!p) return true;
  const f = freshness(r);
  return f < p.fresh || (f === p.fresh && r.id > p.id);
};

export const positionOf = (r: Opportunity): Position => ({ fresh: freshness(r), id: r.id });

/** Ids: a run's own first group, then a number spaced so that ids fit between any two. */
export function idOf(run: number, n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `${run.toString(16).padStart(8, '0')}-0000-4000-8000-${hex}`;
}
const numberOf = (id: string): number => parseInt(id.slice(24), 16);

// ---------------------------------------------------------------------------------------------
// Records.

export interface Traits {
  level: 'senior' | 'mid' | 'lead';
  remote: boolean | null;
  live: boolean;
  /** published_at is the freshness; else it is null and first_seen is. */
  published: boolean;
}

const traitsArb: fc.Arbitrary<Traits> = fc.record({
  level: fc.constantFrom('senior', 'mid', 'lead'),
  remote: fc.constantFrom(true, false, null),
  live: fc.boolean(),
  published: fc.boolean(),
});

/** A full record (makeRecord's valid defaults) with these traits at this freshness. */
export function recordOf(id: string, fresh: number, t: Traits, version = 0): Opportunity {
  const base = makeRecord();
  return makeRecord({
    id,
    title: `Data Engineer v${version}`,
    // A published record is seen later than published: its first_seen must not order it.
    published_at: t.published ? iso(fresh) : null,
    published_precision: t.published ? 'second' : 'unknown',
    first_seen: t.published ? iso(fresh + 3 * 24 * HOUR) : iso(fresh),
    changed_at: iso(BASE + 10 * 24 * HOUR + version),
    level: t.level,
    liveness_status: t.live ? 'live' : 'unknown',
    location: { ...base.location, remote: t.remote },
  });
}

export const traitsOf = (r: Opportunity): Traits => ({
  level: r.level as Traits['level'],
  remote: r.location.remote,
  live: r.liveness_status === 'live',
  published: r.published_at !== null,
});

export interface InventorySpec {
  slot: number;
  idNumber: number;
  traits: Traits;
}

/** 20-60 records over six instants; id numbers spaced 4096 apart. */
export const inventoryArb = (min = 20, max = 60): fc.Arbitrary<InventorySpec[]> =>
  fc.uniqueArray(
    fc.record({
      slot: fc.nat(INSTANTS.length - 1),
      idNumber: fc.integer({ min: 1, max: 4000 }).map((n) => n * 4096),
      traits: traitsArb,
    }),
    { minLength: min, maxLength: max, selector: (s) => s.idNumber },
  );

// ---------------------------------------------------------------------------------------------
// Filters.

const FILTERS: Record<string, readonly string[]> = {
  level: ['senior', 'senior,lead'],
  remote: ['true', 'false'],
  liveness_status: ['live'],
  fresh_after: [iso(BASE + 1), iso(BASE + 2 * HOUR)],
  published_after: [iso(BASE), iso(BASE + HOUR)],
};

/** 0 to 2 filters of different parameters. */
export const queryArb: fc.Arbitrary<Query> = fc
  .uniqueArray(fc.constantFrom(...Object.keys(FILTERS)), { maxLength: 2 })
  .chain((names) =>
    fc
      .tuple(...names.map((n) => fc.constantFrom(...(FILTERS[n] ?? []))))
      .map((values) => Object.fromEntries(names.map((n, i) => [n, values[i] ?? '']))),
  );

export const matches = (q: Query, r: Opportunity): boolean => expected(q, [r]).length === 1;

// ---------------------------------------------------------------------------------------------
// Writes, stated relative to the walk's position.

/** Where a new or moved record goes, relative to the walk's position. */
export type Where = 'fresher' | 'older' | 'tieBelow' | 'tieAbove';
/** Which existing record a write takes. */
export type Target = 'seen' | 'unseen' | 'lastPage';

export type WriteOp =
  | { kind: 'insert'; where: Where; traits: Traits }
  | { kind: 'delete'; target: Target; pick: number }
  /** New traits (level, remote, liveness, published): in or out of the filter. */
  | { kind: 'flip'; target: Target; pick: number; traits: Traits }
  /** A new freshness across the position (and perhaps published or not). */
  | { kind: 'move'; target: Target; pick: number; where: Where; published: boolean }
  /** A change that neither moves the record nor changes a filtered field (its title). */
  | { kind: 'touch'; target: Target; pick: number };

const whereArb = fc.constantFrom<Where>('fresher', 'older', 'tieBelow', 'tieAbove');
const targetArb = fc.constantFrom<Target>('seen', 'unseen', 'lastPage');

export const writeOpArb: fc.Arbitrary<WriteOp> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), where: whereArb, traits: traitsArb }),
  fc.record({ kind: fc.constant('delete' as const), target: targetArb, pick: fc.nat(1000) }),
  fc.record({
    kind: fc.constant('flip' as const),
    target: targetArb,
    pick: fc.nat(1000),
    traits: traitsArb,
  }),
  fc.record({
    kind: fc.constant('move' as const),
    target: targetArb,
    pick: fc.nat(1000),
    where: whereArb,
    published: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('touch' as const), target: targetArb, pick: fc.nat(1000) }),
);

/** A batch of writes made after page `afterPage` (0: before the first page). */
export interface WriteBatch {
  afterPage: number;
  ops: WriteOp[];
  /** Revalidate the last page (If-None-Match with its ETag) once the writes are synced. */
  revalidate: boolean;
}

export const scheduleArb: fc.Arbitrary<WriteBatch[]> = fc
  .array(
    fc.record({
      afterPage: fc.nat(4),
      ops: fc.array(writeOpArb, { minLength: 1, maxLength: 4 }),
      revalidate: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((batches) => [...batches].sort((a, b) => a.afterPage - b.afterPage));

/** What a write did to one record: how the walk may treat it. */
export type Fate = 'inserted' | 'deleted' | 'moved' | 'flipped' | 'touched';

/** The inventory as the service should hold it, and what the walk's writes did to each record. */
export class Inventory {
  readonly records = new Map<string, Opportunity>();
  readonly fates = new Map<string, Set<Fate>>();
  private versions = 0;
  private bump = 1;

  constructor(
    private readonly run: number,
    initial: readonly Opportunity[],
  ) {
    for (const r of initial) this.records.set(r.id, r);
  }

  /** The matching records in list order (contract §8.1). */
  list(q: Query): Opportunity[] {
    return expected(q, [...this.records.values()]);
  }

  private mark(id: string, fate: Fate): void {
    const set = this.fates.get(id) ?? new Set<Fate>();
    set.add(fate);
    this.fates.set(id, set);
  }

  private freshFor(where: Where, p: Position | null): number {
    const ref = p?.fresh ?? (INSTANTS[2] as number);
    if (where === 'fresher') return INSTANTS.find((t) => t > ref) ?? ref + HOUR;
    if (where === 'older') return [...INSTANTS].reverse().find((t) => t < ref) ?? ref - HOUR;
    return ref;
  }

  /** An id not in use; for a tie, just below or above the position's id. */
  private idFor(where: Where, p: Position | null): string {
    for (;;) {
      const step = this.bump++;
      let n: number;
      if (p && where === 'tieBelow') n = numberOf(p.id) - step;
      else if (p && where === 'tieAbove') n = numberOf(p.id) + step;
      else n = 0x100_0000 + step * 4096 + 7;
      const id = idOf(this.run, Math.max(1, n));
      if (!this.records.has(id) && !this.fates.has(id)) return id;
    }
  }

  private pick(target: Target, pick: number, ctx: WalkContext): Opportunity | undefined {
    const pool =
      target === 'seen'
        ? [...ctx.seen].filter((id) => this.records.has(id))
        : target === 'lastPage'
          ? ctx.lastPage.filter((id) => this.records.has(id))
          : [...this.records.keys()].filter((id) => !ctx.seen.has(id)).sort();
    const id = pool.length > 0 ? pool[pick % pool.length] : undefined;
    return id === undefined ? undefined : this.records.get(id);
  }

  /**
   * Applies a batch to the model; returns the records to put and the ids to remove. A record is
   * written at most once a batch (a second write to it is skipped).
   */
  apply(ops: readonly WriteOp[], ctx: WalkContext): { put: Opportunity[]; remove: string[] } {
    const put = new Map<string, Opportunity>();
    const remove = new Set<string>();
    for (const op of ops) {
      const p = ctx.position;
      if (op.kind === 'insert') {
        const id = this.idFor(op.where, p);
        const r = recordOf(id, this.freshFor(op.where, p), op.traits, ++this.versions);
        this.records.set(id, r);
        put.set(id, r);
        this.mark(id, 'inserted');
        continue;
      }
      const r = this.pick(op.target, op.pick, ctx);
      if (!r || put.has(r.id) || remove.has(r.id)) continue;
      if (op.kind === 'delete') {
        this.records.delete(r.id);
        remove.add(r.id);
        this.mark(r.id, 'deleted');
        continue;
      }
      const t = traitsOf(r);
      let next: Opportunity;
      if (op.kind === 'flip') {
        next = recordOf(r.id, freshness(r), op.traits, ++this.versions);
        this.mark(r.id, 'flipped');
      } else if (op.kind === 'move') {
        const fresh = this.freshFor(op.where, p);
        next = recordOf(r.id, fresh, { ...t, published: op.published }, ++this.versions);
        if (fresh !== freshness(r)) this.mark(r.id, 'moved');
        else this.mark(r.id, 'touched');
      } else {
        next = recordOf(r.id, freshness(r), t, ++this.versions);
        this.mark(r.id, 'touched');
      }
      this.records.set(r.id, next);
      put.set(r.id, next);
    }
    return { put: [...put.values()], remove: [...remove] };
  }
}

/** Where the walk stands, for resolving the writes. */
export interface WalkContext {
  position: Position | null;
  /** Ids the walk's account has been delivered. */
  seen: Set<string>;
  /** The ids of the last page served. */
  lastPage: string[];
}

/**
 * The page a request should get (contract §8, §11): the matching records after `p`, without the
 * delivered ones under unseen_only, cut before the (maxNew+1)-th new one under max_new.
 */
export function expectedPage(
  inv: Inventory,
  q: Query,
  p: Position | null,
  limit: number,
  options: { delivered: ReadonlySet<string>; unseenOnly?: boolean; maxNew?: number },
): { ids: string[]; hasMore: boolean; cut: boolean } {
  const rest = inv
    .list(q)
    .filter((r) => after(r, p))
    .filter((r) => !(options.unseenOnly && options.delivered.has(r.id)));
  const ids: string[] = [];
  let fresh = 0;
  for (const r of rest) {
    if (ids.length === limit) break;
    if (options.maxNew !== undefined && !options.delivered.has(r.id)) {
      if (fresh === options.maxNew) return { ids, hasMore: true, cut: true };
      fresh++;
    }
    ids.push(r.id);
  }
  return { ids, hasMore: rest.length > ids.length, cut: false };
}
