import type { ListEnvelope } from '../domain/envelopes';
import type { BodyPieces } from '../infra/reply-buffers';
import { recordQuotedJson, recordText, type RecordText } from '../domain/record-text';

// A list page's JSON as UTF-8 bytes in pieces, for an MCP tool result (mcp/deferred-json.ts). Its
// reply holds the page twice (structuredContent, and the text block as a JSON string): 110 KB for
// 25 whole records. Written as one string, the reply was copied whole when its placeholders were
// filled, and then encoded to UTF-8 whole (two-byte, slower, as soon as one record is not
// ASCII): about 0.2 ms per call. Each record's bytes are instead encoded once and kept beside its
// text (as long as the record object lives, like the text), and the reply is assembled from them
// (infra/reply-buffers.ts).

interface RecordBytes {
  json?: Uint8Array;
  quoted?: Uint8Array;
}

const encoder = new TextEncoder();
const bytes = new WeakMap<RecordText, RecordBytes>();

function bytesOf(record: object): RecordBytes {
  const text = recordText(record);
  let kept = bytes.get(text);
  if (kept === undefined) {
    kept = {};
    bytes.set(text, kept);
  }
  return kept;
}

/** UTF-8 of recordText(record).json; TextEncoder gives each its own exact buffer (no pool slab). */
export const recordJsonBytes = (record: object): Uint8Array =>
  (bytesOf(record).json ??= encoder.encode(recordText(record).json));

const quotedBytes = (record: object): Uint8Array =>
  (bytesOf(record).quoted ??= encoder.encode(recordQuotedJson(record)));

const isListEnvelope = (body: ListEnvelope): boolean =>
  Object.keys(body).join() === 'data,pagination,meta' && Array.isArray(body.data);

const quoted = (json: string) => JSON.stringify(json).slice(1, -1);

function joined(
  records: readonly object[],
  of: (record: object) => Uint8Array,
): (string | Uint8Array)[] {
  const pieces: (string | Uint8Array)[] = [];
  records.forEach((record, i) => {
    if (i > 0) pieces.push(',');
    pieces.push(of(record));
  });
  return pieces;
}

/** listJson(body) in pieces (the same bytes), or null when body is not a list envelope. */
export function listJsonPieces(body: ListEnvelope): BodyPieces | null {
  if (!isListEnvelope(body)) return null;
  const rest = `],"pagination":${JSON.stringify(body.pagination)},"meta":${JSON.stringify(body.meta)}}`;
  return ['{"data":[', ...joined(body.data, recordJsonBytes), rest];
}

/**
 * JSON.stringify(listJson(body)) in pieces (the same bytes): the text block as the reply holds
 * it, from each record's quoted text (domain/record-text.ts, recordQuotedJson), or null.
 */
export function listJsonStringPieces(body: ListEnvelope): BodyPieces | null {
  if (!isListEnvelope(body)) return null;
  const rest = `],"pagination":${JSON.stringify(body.pagination)},"meta":${JSON.stringify(body.meta)}}`;
  return [`"${quoted('{"data":[')}`, ...joined(body.data, quotedBytes), `${quoted(rest)}"`];
}
