import { createHash } from 'node:crypto';
import type { Opportunity } from './record';

// A record's JSON text and digest, made once per record object (issue 13) or once when the record
// was indexed (issue 25), and kept beside the object in a WeakMap: they go when the object goes.
// list-json.ts builds list bodies and entity tags from them. The texts are data, never
// interpreted.

export interface RecordText {
  /** Exactly JSON.stringify(record). */
  json: string;
  /** recordDigest(json). */
  digest: string;
}

/** The digest of a record's JSON text (SHA-256, base64url), as a list page's ETag uses it. */
export const recordDigest = (json: string): string =>
  createHash('sha256').update(json).digest('base64url');

const texts = new WeakMap<object, RecordText>();

/** The record's text and digest: given by storedRecord, else made on first use and kept. */
export function recordText(record: object): RecordText {
  let text = texts.get(record);
  if (text === undefined) {
    const json = JSON.stringify(record);
    text = { json, digest: recordDigest(json) };
    texts.set(record, text);
  }
  return text;
}

/**
 * The record whose JSON text is `json` (exactly JSON.stringify of it) and whose digest is `digest`
 * (recordDigest(json)), as read from the index (search/documents.ts). It behaves as the parsed
 * record in every way a plain object does (fields, `in`, spread, keys, JSON.stringify), parsing
 * `json` on the first read of any field but `id`: a page of whole records is spliced and tagged
 * from the stored texts with no parse, serialization or hash per record, and only `fields` or the
 * preview's redaction pay for a parse. It is read-only, as every served record is.
 */
export function storedRecord(id: string, json: string, digest: string): Opportunity {
  let parsed: object | undefined;
  const record = (): object => (parsed ??= JSON.parse(json) as object);
  const readOnly = () => false;
  const lazy = new Proxy(
    {},
    {
      get: (_target, key) => (key === 'id' ? id : Reflect.get(record(), key)),
      has: (_target, key) => key in record(),
      ownKeys: () => Reflect.ownKeys(record()),
      getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(record(), key),
      set: readOnly,
      defineProperty: readOnly,
      deleteProperty: readOnly,
    },
  );
  texts.set(lazy, { json, digest });
  return lazy as Opportunity;
}
