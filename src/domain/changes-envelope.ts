import { z } from 'zod';
import { catalogParamSchema, cursorParam, dateParam } from './filters';
import { Opportunity, SparseOpportunity } from './record';

// The change feed's envelope (contract §12): a list envelope whose items are
// records at their latest state or tombstones of removed records, and whose cursor never ends.

export const Tombstone = z
  .object({
    id: z.uuid(),
    deleted: z.literal(true),
    changed_at: z.iso.datetime().describe('When the record was removed from the store.'),
  })
  .describe('A record removed from the store: drop it from what your integration holds. Free.');

export const ChangeFeedItem = z.union([Opportunity, SparseOpportunity, Tombstone]);

export const ChangesEnvelope = z.object({
  data: z
    .array(ChangeFeedItem)
    .describe(
      'Changes in the order they were indexed (ascending), each record once at its latest state.',
    ),
  pagination: z.object({
    returned: z.number().int().min(0),
    next_cursor: z
      .string()
      .describe(
        'Never null: the position to continue from, now (has_more true) or when polling later. Signed, bound to since and the account.',
      ),
    has_more: z.boolean().describe('Whether more changes exist now after next_cursor.'),
    limit: z.number().int().min(1).max(100),
  }),
  meta: z.object({
    request_id: z.string(),
    applied_filters: z
      .object({ since: z.string().optional() })
      .describe('since as a UTC ISO string when the feed is bounded by it.'),
  }),
});

export type Tombstone = z.infer<typeof Tombstone>;
export type ChangeFeedItem = z.infer<typeof ChangeFeedItem>;
export type ChangesEnvelope = z.infer<typeof ChangesEnvelope>;

/**
 * The feed's query, as documented (parsing with its codes: service/change-feed.ts). A parameter
 * it shares with list takes the catalog's typed schema (catalogParamSchema), so both agree.
 */
export const ChangesQuery = z.object({
  since: dateParam()
    .optional()
    .describe(
      'Changes whose changed_at (a tombstone: its deletion time) is at or after this instant. ISO 8601 date-time with Z or an offset, or YYYY-MM-DD. Without since and cursor: the whole store from the start. Beside a cursor it must equal the since the cursor was issued for.',
    ),
  cursor: cursorParam()
    .optional()
    .describe(
      'pagination.next_cursor of an earlier feed page: continue from there now, or poll from it later. It carries since.',
    ),
  limit: catalogParamSchema('limit')
    .optional()
    .describe("Page size, 1 to 100 (default 25) and at most the account's page size."),
});
