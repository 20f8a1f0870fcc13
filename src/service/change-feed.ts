import type { ChangeFeedItem, ChangesEnvelope } from '../domain/changes-envelope';
import {
  invalidFilter,
  malformedCursor,
  unknownParameter,
  validationError,
} from '../domain/errors';
import { parseDateParam, parseRestQuery, refusePastedKeys } from '../domain/filters';
import { projection, sparseRecord } from '../domain/sparse-fields';
import type { ChangeFeedRow, ChangeLog } from '../store/changes-repo';
import type { CursorCodec } from '../search/cursor';
import type { Settings } from './context';

// GET /v1/opportunities/changes (contract §12). Rules this file decides:
// - since alone: changes whose changed_at (a tombstone's: its deletion time) >= since, from the
//   start of the feed. Neither since nor cursor: the whole store from the start (an integration's
//   first copy). cursor alone: continue where it points; it carries since.
// - cursor with since: allowed when since is the one the cursor was issued for (like list filters
//   beside a list cursor, contract §8.4); another since → 400 malformed_cursor.
// - since bounds what the feed held when it was opened (the first call's horizon, carried by the
//   cursor); every change after that is "onward" and comes whatever its changed_at. Otherwise a
//   record imported with its own older changed_at, or deleted and then restored, would never
//   reach an integration polling with since: its copy would keep the tombstone for ever.
// - The cursor is signed like list cursors (the same keys and codec) and bound to the account; its
//   binding names the feed, so a list cursor is refused here and a feed cursor in list.

const PARAMS = new Set(['since', 'cursor', 'limit', 'fields']);
/** The cursor binding of the feed: never a filter digest (those are hashes), so never a list's. */
const FEED_BINDING = 'change-feed:v1';
/** Stands for "no since" in the cursor's position, whose second slot must be a non-empty string. */
const FROM_START = '-';

export interface ChangeFeedRequest {
  /** UTC ISO string, or null: from the start. */
  since: string | null;
  cursor?: string;
  limit: number;
  /** contract §7.6: records carry id and these fields; tombstones are unchanged. */
  fields?: string[];
}

export interface ChangeFeedPage {
  body: ChangesEnvelope;
  /** Records (not tombstones) on the page: what the meter delivers. */
  recordIds: string[];
}

/** Reads the feed's query: the names and repeats as list does (contract §6.6), limit as list. */
export function parseChangesQuery(
  query: Record<string, unknown>,
  maxPageSize: number,
  deps: Pick<Settings, 'taxonomy'>,
): ChangeFeedRequest {
  // contract §6.14: a key pasted as a value (`since=oppk_…`, `api_key=oppk_…`) is refused as on
  // list, before any name or value is read; the cursor is not looked into.
  refusePastedKeys(Object.entries(query));
  for (const [name, value] of Object.entries(query)) {
    if (!PARAMS.has(name)) {
      throw unknownParameter(name);
    }
    if (Array.isArray(value) && value.length > 1) {
      throw invalidFilter(name, 'repeated', `Parameter ${name} is given more than once.`);
    }
  }
  // The limit and fields rules of list, verbatim: 422 for a bad format, 400 page_size_exceeded
  // above the account's page size, 400 invalid_filter for an unknown field (contract §6.6, §7.6).
  const listed: Record<string, unknown> = {};
  if (query.limit !== undefined) listed.limit = query.limit;
  if (query.fields !== undefined) listed.fields = query.fields;
  const {
    limit,
    options: { fields },
  } = parseRestQuery('list', listed, { taxonomy: deps.taxonomy, maxPageSize });
  let since: string | null = null;
  if (query.since !== undefined) {
    const millis =
      typeof query.since === 'string' ? parseDateParam(query.since.trim(), 'up') : undefined;
    if (millis === undefined) {
      throw validationError(
        'since',
        'bad_format',
        'since must be an ISO 8601 date-time with Z or an offset, or YYYY-MM-DD.',
      );
    }
    since = new Date(millis).toISOString();
  }
  const cursor = query.cursor;
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor.trim() === '')) {
    throw malformedCursor();
  }
  return {
    since,
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    ...(fields === undefined ? {} : { fields }),
  };
}

/**
 * One page of the feed for an account: the rows after the cursor's position (or from the start),
 * limit + 1 read to know whether more exist now, and a cursor at the last returned change (or the
 * same position when nothing came) so an integration can poll from it later.
 */
export async function changeFeedPage(
  cursor: CursorCodec,
  changes: ChangeLog,
  request: ChangeFeedRequest,
  accountId: string,
  requestId: string,
): Promise<ChangeFeedPage> {
  let after = 0;
  let since = request.since;
  let horizon: number | null = null;
  if (request.cursor !== undefined) {
    const position = await cursor.decode(request.cursor, {
      filterDigest: FEED_BINDING,
      accountId,
    });
    // The feed's positions are [seq, since] and [horizon, seq, since]; a cursor of the first shape
    // with a since was issued before horizons, and keeps since on every change.
    const [seq, boundSince] = position.length === 3 ? position.slice(1) : position;
    if (typeof seq !== 'number' || typeof boundSince !== 'string') throw malformedCursor();
    if (position.length === 3) horizon = position[0];
    const cursorSince = boundSince === FROM_START ? null : boundSince;
    if (since !== null && since !== cursorSince) throw malformedCursor();
    since = cursorSince;
    after = seq;
  } else if (since !== null) {
    // Read before the rows: a change between the two reads is after the horizon, so it comes.
    horizon = await changes.horizon();
  }
  const rows = await changes.read({
    after,
    since: since === null ? null : new Date(since),
    horizon,
    limit: request.limit + 1,
  });
  const page = rows.slice(0, request.limit);
  const last = page[page.length - 1]?.seq ?? after;
  const nextCursor = await cursor.encode({
    filterDigest: FEED_BINDING,
    accountId,
    position:
      since === null || horizon === null ? [last, since ?? FROM_START] : [horizon, last, since],
  });
  const keep = projection(request.fields);
  const data = page.map((row) => toItem(row, keep));
  return {
    body: {
      data,
      pagination: {
        returned: data.length,
        next_cursor: nextCursor,
        has_more: rows.length > request.limit,
        limit: request.limit,
      },
      meta: { request_id: requestId, applied_filters: since === null ? {} : { since } },
    },
    recordIds: page.filter((r) => r.deletedAt === null).map((r) => r.id),
  };
}

function toItem(row: ChangeFeedRow, keep: readonly string[] | undefined): ChangeFeedItem {
  if (row.deletedAt === null) return sparseRecord(row.record, keep);
  return { id: row.id, deleted: true, changed_at: row.deletedAt.toISOString() };
}
