import { createHash } from 'node:crypto';
import type { ListEnvelope } from '../domain/envelopes';

// A list page's JSON without serializing its records on every request (issue 13: JSON serialize
// of records). A record object served from the search cache is the same object on every request
// that serves it, so its JSON text and digest are kept beside it (a WeakMap: they go when the
// cached page goes). The records are the stored public records, returned as they are: their text
// is data, never interpreted.

interface RecordText {
  json: string;
  digest: string;
}

const texts = new WeakMap<object, RecordText>();

function textOf(record: object): RecordText {
  let text = texts.get(record);
  if (text === undefined) {
    const json = JSON.stringify(record);
    text = { json, digest: createHash('sha256').update(json).digest('base64url') };
    texts.set(record, text);
  }
  return text;
}

/** Exactly JSON.stringify(record), kept beside the record object like a page's texts. */
export const recordJson = (record: object): string => textOf(record).json;

/** Exactly JSON.stringify(body), reusing each record's text when `body` is a list envelope. */
export function listJson(body: ListEnvelope): string {
  if (Object.keys(body).join() !== 'data,pagination,meta' || !Array.isArray(body.data)) {
    return JSON.stringify(body);
  }
  const data = body.data.map((r) => textOf(r).json).join(',');
  return `{"data":[${data}],"pagination":${JSON.stringify(body.pagination)},"meta":${JSON.stringify(body.meta)}}`;
}

/**
 * The weak entity tag of a list body (decisions 11): a digest of every record's digest, the
 * pagination and the meta without request_id (the only part that differs from one identical
 * response to the next), so equal content gives equal tags and any change a different one.
 */
export function listRepresentationTag(body: ListEnvelope): string {
  const hash = createHash('sha256');
  for (const record of body.data) hash.update(textOf(record).digest).update(',');
  hash.update(JSON.stringify(body.pagination));
  hash.update(JSON.stringify({ ...body.meta, request_id: '' }));
  return `W/"${hash.digest('base64url').slice(0, 32)}"`;
}
