import type { PageDelivery } from '../billing/metering';
import type { Opportunity } from '../domain/record';
import type { CursorCodec } from '../search/cursor';
import type { Page } from './opportunity-search';

/**
 * The page as the meter served it (contract §11.2). max_new may stop it before the record that
 * would overrun the budget: next_cursor then resumes right after the last considered record (or
 * where the page started, when it stopped at once), so nothing is skipped, and has_more stays true.
 * unseen_only may leave out a record a parallel page delivered meanwhile: it is not new any more.
 */
export async function servedPage(
  cursor: CursorCodec,
  page: Page,
  delivery: Pick<PageDelivery, 'consumed' | 'servedIds'>,
  accountId: string,
): Promise<{ records: Opportunity[]; nextCursor: string | null }> {
  const all = page.records.length;
  if (delivery.consumed >= all && delivery.servedIds.length === all) return page;
  const served = new Set(delivery.servedIds);
  const records = page.records.slice(0, delivery.consumed).filter((r) => served.has(r.id));
  if (delivery.consumed >= all) return { records, nextCursor: page.nextCursor };
  const position = (delivery.consumed > 0 && page.positions[delivery.consumed - 1]) || page.start;
  const nextCursor = await cursor.encode({ filterDigest: page.digest, accountId, position });
  return { records, nextCursor };
}
