import type { ListEnvelope } from '../domain/envelopes';
import { recordQuotedJson, recordText } from '../domain/record-text';
import { entityTag } from '../infra/entity-tag';

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

const quoted = (json: string) => JSON.stringify(json).slice(1, -1);

/**
 * Exactly JSON.stringify(json), where json is listJson(body): an MCP tool result's text block as it
 * stands in the reply (mcp/deferred-json.ts). For a list envelope it is built from each record's
 * quoted text, kept beside the record like its text, so a repeated page's 50 KB are not escaped
 * again per call. Escaping is character by character and the parts meet at ASCII characters, so
 * the quoted parts joined are the quoted whole.
 */
export function listJsonString(body: ListEnvelope, json: string): string {
  if (Object.keys(body).join() !== 'data,pagination,meta' || !Array.isArray(body.data)) {
    return JSON.stringify(json);
  }
  const data = body.data.map(recordQuotedJson).join(',');
  const rest = `],"pagination":${JSON.stringify(body.pagination)},"meta":${JSON.stringify(body.meta)}}`;
  return `"${quoted('{"data":[')}${data}${quoted(rest)}"`;
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
