import type { ListEnvelope } from '../domain/envelopes';
import { recordText } from '../domain/record-text';
import { entityTag } from '../infra/entity-tag';
import { AssembledBody } from '../infra/reply-buffers';
import { listJsonPieces } from './list-bytes';

// A list page's JSON without serializing its records on every request. Each
// record's JSON text and digest come from domain/record-text.ts: stored in the index and handed
// over with a record read from it, or made once per record object served from the search cache.
// The records are the stored public records, returned as they are: their text is data, never
// interpreted.

/** Exactly JSON.stringify(record), kept beside the record object like a page's texts. */
export const recordJson = (record: object): string => recordText(record).json;

/** Exactly JSON.stringify(body), reusing each record's text when `body` is a list envelope. */
export function listJson(body: ListEnvelope): string {
  if (Object.keys(body).join() !== 'data,pagination,meta' || !Array.isArray(body.data)) {
    return JSON.stringify(body);
  }
  const data = body.data.map((r) => recordText(r).json).join(',');
  return `{"data":[${data}],"pagination":${JSON.stringify(body.pagination)},"meta":${JSON.stringify(body.meta)}}`;
}

/**
 * Records' text, in characters, above which a REST list body is written as UTF-8 bytes (each
 * record's own, kept: list-bytes.ts) instead of one string. As one string, a page of 100 of the
 * bench's records (205,000 characters, a few of them two-byte) was a 410 KB large object for V8,
 * and the body cost 5.5-5.7 ms of CPU against 1.0-1.4 ms from the records' bytes; a page of 25 is
 * a regular string, cheaper than the bytes (docs/benchmarks.md, Large answers). 60,000 characters
 * stay under V8's 128 KiB for a regular object even when every character takes two bytes.
 */
const BYTES_ABOVE_CHARACTERS = 60_000;

/** A REST list body: listJson(body), or for a long page the same JSON as UTF-8 bytes. */
export function listJsonBody(body: ListEnvelope): string | AssembledBody {
  let characters = 0;
  for (const record of body.data) characters += recordText(record).json.length;
  const pieces = characters > BYTES_ABOVE_CHARACTERS ? listJsonPieces(body) : null;
  return pieces ? AssembledBody.of(pieces) : listJson(body);
}

/**
 * The weak entity tag of a list body (contract §13): a digest of every record's digest, the
 * pagination and the meta without request_id (the only part that differs from one identical
 * response to the next), so equal content gives equal tags and any change a different one.
 */
export function listRepresentationTag(body: ListEnvelope): string {
  return entityTag(representationParts(body), 'weak');
}

function* representationParts(body: ListEnvelope): Generator<string> {
  for (const record of body.data) yield `${recordText(record).digest},`;
  yield JSON.stringify(body.pagination);
  yield JSON.stringify({ ...body.meta, request_id: '' });
}
