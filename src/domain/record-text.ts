import { createHash } from 'node:crypto';
import type { Opportunity } from './record';

// A record's JSON text and digest, made once per record object or once when the record
// was indexed, and kept beside the object in a WeakMap: they go when the object goes.
// list-json.ts builds list bodies and entity tags from them. The texts are data, never
// interpreted.

export interface RecordText {
  /** Exactly JSON.stringify(record). */
  readonly json: string;
  /** recordDigest(json). */
  readonly digest: string;
  /** JSON.stringify(json) without its quotes, once asked for (an MCP text block holds it). */
  quoted?: string;
}

/** The digest of a record's JSON text (SHA-256, base64url), as a list page's ETag uses it. */
export const recordDigest = (json: string): string =>
  createHash('sha256').update(json).digest('base64url');

/**
 * A text made here from a record object. Its digest is hashed on first use: only a REST list's
 * entity tag and the record-text cache ask for one, and a sparse record (`fields`) or an MCP page
 * never does (the hash was 4 % of an agent's `fields` call, docs/benchmarks.md).
 */
class MadeText implements RecordText {
  quoted?: string;
  private hashed?: string;

  constructor(readonly json: string) {}

  get digest(): string {
    return (this.hashed ??= recordDigest(this.json));
  }
}

const texts = new WeakMap<object, RecordText>();

/** What a stored record's stand-in answers for itself, without parsing (storedRecord). */
const TEXT = Symbol('record text');

/** The text and digest a stored record (storedRecord) was read with; undefined for any other. */
export const storedText = (record: object): RecordText | undefined =>
  (record as { [TEXT]?: RecordText })[TEXT];

/** The record's text and digest: given by storedRecord, else made on first use and kept. */
export function recordText(record: object): RecordText {
  const stored = storedText(record);
  if (stored !== undefined) return stored;
  let text = texts.get(record);
  if (text === undefined) {
    text = new MadeText(JSON.stringify(record));
    texts.set(record, text);
  }
  return text;
}

/** The record's text as it stands inside a JSON string: JSON.stringify(json) less its quotes. */
export function recordQuotedJson(record: object): string {
  const text = recordText(record);
  return (text.quoted ??= JSON.stringify(text.json).slice(1, -1));
}

/** A stored record's state: its id and text, and the record once something needed it. */
interface Stored {
  id: string;
  text: RecordText;
  parsed?: object;
}

const parsed = (s: Stored): object => (s.parsed ??= JSON.parse(s.text.json) as object);
const readOnly = () => false;

// One handler for every stored record (no closures per record): a page makes 25 of them.
const STORED: ProxyHandler<Stored> = {
  get: (s, key) => (key === 'id' ? s.id : key === TEXT ? s.text : Reflect.get(parsed(s), key)),
  has: (s, key) => key in parsed(s),
  ownKeys: (s) => Reflect.ownKeys(parsed(s)),
  getOwnPropertyDescriptor: (s, key) => Reflect.getOwnPropertyDescriptor(parsed(s), key),
  set: readOnly,
  defineProperty: readOnly,
  deleteProperty: readOnly,
};

/**
 * The record whose JSON text is `json` (exactly JSON.stringify of it) and whose digest is `digest`
 * (recordDigest(json)), as read from the index (search/documents.ts). It behaves as the parsed
 * record in every way a plain object does (fields, `in`, spread, keys, JSON.stringify), parsing
 * `json` on the first read of any field but `id`: a page of whole records is spliced and tagged
 * from the stored texts with no parse, serialization or hash per record, and only `fields` or the
 * preview's redaction pay for a parse. It is read-only, as every served record is.
 */
export function storedRecord(id: string, json: string, digest: string): Opportunity {
  // The target is only the handler's state: the stand-in reports the parsed record's keys and
  // descriptors, which an extensible target allows (none of its own is non-configurable).
  return new Proxy<Stored>({ id, text: { json, digest } }, STORED) as unknown as Opportunity;
}
