import type { ListEnvelope } from '../domain/envelopes';
import type { CursorCodec } from '../search/cursor';
import { piecesByteLength } from '../infra/reply-buffers';
import { listJsonPieces, recordJsonBytes } from './list-bytes';
import { listJson } from './list-json';
import type { Page } from './opportunity-search';

// The result budget of contract §21.11: the text block of one MCP tool result (the list envelope's
// JSON) stays within MCP_MAX_RESULT_BYTES. A page that would pass it stops before the record that
// would: at least one record always comes, next_cursor continues right after the last returned
// one (nothing is skipped, has_more is true), and the records left out are never delivered, so
// they cost nothing. Applied to the page BEFORE it is metered; a page that fits is the same page.

/** How a page becomes the envelope the client gets (records as served: whole or sparse). */
export type EnvelopeOf = (page: Pick<Page, 'records' | 'nextCursor'>) => ListEnvelope;

/**
 * The UTF-8 length of listJson(envelope): from each record's kept bytes (list-bytes.ts), which the
 * tool result is then written from, instead of joining the page's text and measuring it per call.
 */
const bytes = (envelope: ListEnvelope): number => {
  const pieces = listJsonPieces(envelope);
  return pieces ? piecesByteLength(pieces) : Buffer.byteLength(listJson(envelope), 'utf8');
};

/** The first `count` records of `page`, with a cursor that resumes right after the last of them. */
export async function pagePrefix(
  codec: CursorCodec,
  page: Page,
  count: number,
  accountId: string,
): Promise<Page> {
  if (count >= page.records.length) return page;
  const position = page.positions[count - 1];
  if (position === undefined) throw new Error('result budget: a cut needs at least one record');
  const nextCursor = await codec.encode({ filterDigest: page.digest, accountId, position });
  return {
    ...page,
    records: page.records.slice(0, count),
    positions: page.positions.slice(0, count),
    nextCursor,
  };
}

/** `page`, or its longest prefix (at least one record) whose envelope fits in `maxBytes`. */
export async function pageWithinBytes(
  codec: CursorCodec,
  page: Page,
  envelopeOf: EnvelopeOf,
  maxBytes: number,
  accountId: string,
): Promise<Page> {
  const whole = envelopeOf(page);
  if (page.records.length <= 1 || bytes(whole) <= maxBytes) return page;
  // The envelope without its records, with the cursor it has now: a cut's cursor differs only in
  // its position, so its length is all but the same; the exact check below settles the rest.
  const frame = bytes({ ...whole, data: [] });
  let used = frame;
  let count = 0;
  for (const record of whole.data) {
    const size = recordJsonBytes(record).length + (count > 0 ? 1 : 0);
    if (count > 0 && used + size > maxBytes) break;
    used += size;
    count += 1;
  }
  for (;;) {
    const cut = await pagePrefix(codec, page, count, accountId);
    if (count <= 1 || bytes(envelopeOf(cut)) <= maxBytes) return cut;
    count -= 1;
  }
}
