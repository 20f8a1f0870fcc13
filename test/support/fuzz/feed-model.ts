import type { Opportunity } from '../../../src/domain/record';

// A model of the change feed (contract §12) for the model-based property test
// (test/integration/change-feed-model.property.test.ts): the canonical store as a log of changes,
// and consumers, each an integration polling the feed with its own cursor and applying what it
// receives to its local copy. It uses no logic of src/: the feed's content is derived from the
// contract's text alone.
//
// - Every change to a record (an insert, an update whose content differs, a deletion, a restore)
//   takes the next position; re-importing a record unchanged takes none (docs/operations.md,
//   `import`: idempotent for records). A record is in the feed once, at its latest change.
// - A consumer opened without `since` reads the whole store from the start (contract §12.1.2).
// - A consumer opened with `since` gets the changes the feed held when it was opened (its
//   horizon) whose changed_at, or a tombstone's deletion time, is at or after `since`, and every
//   later change whatever its changed_at (contract §12.1.1).

/** The top-level fields of a record (contract §2.2, and `evidence`), as `fields` names them. */
export const RECORD_FIELDS = [
  'id',
  'title',
  'normalized_title',
  'employer',
  'intermediary',
  'organizations',
  'canonical_url',
  'application_url',
  'sources',
  'published_at',
  'published_precision',
  'first_seen',
  'changed_at',
  'last_verified_live_at',
  'liveness_status',
  'technology_classification',
  'job_domain',
  'job_family',
  'job_subfamily',
  'job_class',
  'level',
  'management_track',
  'specializations',
  'engagement_models',
  'commercial_eligibility',
  'actionability',
  'location',
  'rate',
  'is_low_pay',
  'pay_basis',
  'work_structure',
  'duration',
  'evidence',
] as const;

/** One id in the model store: its latest change and its latest live state. */
export interface Row {
  id: string;
  /** Position of the latest change (model positions: 1, 2, 3… in the order changes were made). */
  seq: number;
  /** The stored record, or null once deleted. */
  record: Opportunity | null;
  /** The last live state (what a restore imports again). */
  last: Opportunity;
  /** When deleted: the wall-clock window of the write that deleted it (the tombstone's time). */
  deletedWithin: [number, number] | null;
}

export type WriteOutcome = 'inserted' | 'updated' | 'unchanged' | 'deleted' | 'unknown';

/** Deep equality of JSON values, key order ignored (the store's content hash ignores nothing else). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  if (keys.length !== Object.keys(bo).length) return false;
  return keys.every((k) => k in bo && sameJson(ao[k], bo[k]));
}

/** The store: every id ever stored in the test database, shared by every run of the property. */
export class StoreModel {
  seq = 0;
  /**
   * The position of the newest change the feed shows: the last sync's (contract §12.2: a change
   * appears once list and count reflect it). `import --no-sync` leaves later changes unshown.
   */
  visible = 0;
  readonly rows = new Map<string, Row>();

  /** A sync (every write but `import --no-sync` ends with one): every change is shown. */
  sync(): void {
    this.visible = this.seq;
  }

  /** An import line of a record (insert, update, restore or unchanged). */
  put(record: Opportunity): WriteOutcome {
    const row = this.rows.get(record.id);
    if (!row) {
      this.rows.set(record.id, {
        id: record.id,
        seq: ++this.seq,
        record,
        last: record,
        deletedWithin: null,
      });
      return 'inserted';
    }
    if (row.record !== null && sameJson(row.record, record)) return 'unchanged';
    row.seq = ++this.seq;
    row.record = record;
    row.last = record;
    row.deletedWithin = null;
    return 'updated';
  }

  /** A deletion (a deletion line of an import, or `delete ID`), within a wall-clock window. */
  remove(id: string, within: [number, number]): WriteOutcome {
    const row = this.rows.get(id);
    if (!row || row.record === null) return 'unknown';
    row.seq = ++this.seq;
    row.record = null;
    row.deletedWithin = within;
    return 'deleted';
  }

  live(): Row[] {
    return this.ordered().filter((r) => r.record !== null);
  }

  deleted(): Row[] {
    return this.ordered().filter((r) => r.record === null);
  }

  /** Every row in feed order (the order of their latest changes). */
  ordered(): Row[] {
    return [...this.rows.values()].sort((a, b) => a.seq - b.seq);
  }
}

/** An account's deliveries in the period (contract §16.1): the ids delivered so far. */
export interface AccountModel {
  name: string;
  /** `plan` (included allowance first, then the wallet) or `legacy_wallet` (every one charged). */
  billing: 'plan' | 'wallet';
  accountId: string;
  key: string;
  delivered: Set<string>;
  /** The included allowance of the period (a `legacy_wallet` account's is 0, contract §18.4). */
  allowance: number;
  /** The prepaid wallet's balance, in millicents. */
  balance: number;
}

/** The price of one opportunity charged to the wallet (contract §16.3). */
export const PRICE = 400;

/** What a page delivering `fresh` new records costs the account (contract §16.3, §18). */
export interface Charge {
  /** False: 402 insufficient_balance, nothing delivered (contract §16.4). */
  covered: boolean;
  included: number;
  payg: number;
  millicents: number;
}

export function chargeFor(account: AccountModel, fresh: number): Charge {
  const remaining = Math.max(0, account.allowance - account.delivered.size);
  const included = Math.min(fresh, remaining);
  const payg = fresh - included;
  const millicents = payg * PRICE;
  return { covered: millicents <= account.balance, included, payg, millicents };
}

/** The usage headers an account's response must carry after it (contract §18.1, §18.3). */
export function usageFigures(account: AccountModel) {
  return {
    used: account.delivered.size,
    limit: account.allowance,
    remaining: Math.max(0, account.allowance - account.delivered.size),
    balance: account.balance,
    credits: Math.floor(account.balance / PRICE),
  };
}

/** A received item as the consumer holds it, with the `fields` of the read that brought it. */
export interface Held {
  item: Record<string, unknown>;
  fields: readonly string[] | null;
}

/** An integration: its account, its `since`, its cursor and its copy of the store. */
export interface ConsumerModel {
  name: string;
  account: AccountModel;
  /** `since` as the consumer first sent it, and the instant it names (ms). */
  since: { text: string; ms: number } | null;
  /** Null until the first read; then the model position of the newest change at that read. */
  horizon: number | null;
  opened: boolean;
  /** The model position of the last change received. */
  position: number;
  cursor: string | null;
  /** Every cursor the consumer was given, with the position it marks (to go back to one). */
  cursors: { cursor: string; position: number }[];
  copy: Map<string, Held>;
}

/** The time a change is filtered by: a record's changed_at, a tombstone's deletion time. */
function changeTimes(row: Row): [number, number] {
  if (row.record !== null) {
    const at = Date.parse(row.record.changed_at);
    return [at, at];
  }
  const [from, to] = row.deletedWithin ?? [0, 0];
  return [from, to];
}

/**
 * Whether the consumer's feed holds this row's latest change at all (position aside). Throws when
 * the model cannot tell (a deletion time too close to `since`): the test keeps them apart.
 */
export function inFeedOf(row: Row, consumer: ConsumerModel): boolean {
  if (consumer.since === null) return true;
  if (consumer.horizon !== null && row.seq > consumer.horizon) return true;
  const [from, to] = changeTimes(row);
  if (from >= consumer.since.ms) return true;
  if (to < consumer.since.ms) return false;
  throw new Error(`model: the deletion of ${row.id} is too close to since ${consumer.since.text}`);
}

/** The changes still to come for a consumer, in feed order (the shown ones). */
export function pendingFor(store: StoreModel, consumer: ConsumerModel): Row[] {
  return store
    .ordered()
    .filter((r) => r.seq > consumer.position && r.seq <= store.visible && inFeedOf(r, consumer));
}

/** `record` with only id and `fields` (contract §7.6); the whole record without fields. */
export function project(
  record: Opportunity,
  fields: readonly string[] | null,
): Record<string, unknown> {
  if (fields === null) return { ...record };
  const keep = new Set<string>(['id', ...fields]);
  return Object.fromEntries(Object.entries(record).filter(([k]) => keep.has(k)));
}

/**
 * What an item of the feed must be for this row: the record at its latest state (projected), or
 * a tombstone `{ id, deleted: true, changed_at }` timed within its deletion's window. Returns a
 * reason when it is not, null when it is.
 */
export function itemProblem(
  item: Record<string, unknown>,
  row: Row,
  fields: readonly string[] | null,
  slackMs = 2_000,
): string | null {
  if (row.record !== null) {
    const want = project(row.record, fields);
    return sameJson(item, want)
      ? null
      : `record ${row.id} is not at its latest state: got ${JSON.stringify(item)}, want ${JSON.stringify(want)}`;
  }
  const keys = Object.keys(item).sort().join(',');
  if (keys !== 'changed_at,deleted,id' || item.id !== row.id || item.deleted !== true) {
    return `tombstone of ${row.id} has the wrong shape: ${JSON.stringify(item)}`;
  }
  const at = typeof item.changed_at === 'string' ? Date.parse(item.changed_at) : NaN;
  const [from, to] = row.deletedWithin ?? [0, 0];
  if (!(at >= from - slackMs && at <= to + slackMs)) {
    return `tombstone of ${row.id} timed ${String(item.changed_at)}, not within its deletion (${new Date(from).toISOString()} .. ${new Date(to).toISOString()})`;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(String(item.changed_at))) {
    return `tombstone of ${row.id}: changed_at ${String(item.changed_at)} is not UTC ISO 8601`;
  }
  return null;
}

/**
 * The consumer's copy against the store, once it has read everything there is: every record its
 * feed holds at its latest state (as it was projected when received), every deleted id it holds
 * a tombstone (or absent if it never received the record), nothing else. A record whose latest
 * change is not shown yet may be held in any earlier state, or not at all. Returns the problems.
 */
export function copyProblems(store: StoreModel, consumer: ConsumerModel): string[] {
  const problems: string[] = [];
  const expected = new Set<string>();
  for (const row of store.ordered()) {
    if (row.seq > store.visible) {
      expected.add(row.id);
      continue;
    }
    if (!inFeedOf(row, consumer)) continue;
    expected.add(row.id);
    const held = consumer.copy.get(row.id);
    if (row.record !== null) {
      if (!held) {
        problems.push(`${consumer.name}: record ${row.id} missing from the copy`);
        continue;
      }
      const problem = itemProblem(held.item, row, held.fields);
      if (problem) problems.push(`${consumer.name}: ${problem}`);
    } else if (held && held.item.deleted !== true) {
      problems.push(`${consumer.name}: deleted ${row.id} still held as a record`);
    }
  }
  for (const id of consumer.copy.keys()) {
    if (!expected.has(id)) problems.push(`${consumer.name}: holds ${id}, which its feed never had`);
  }
  return problems;
}
