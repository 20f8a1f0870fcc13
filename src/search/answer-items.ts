import type { Readable } from 'node:stream';
import { unzipSync } from 'node:zlib';
import { errors, type ApiResponse } from '@opensearch-project/opensearch';

// An answer that carries record texts (a page's search, the multi-get of a first page's texts) is
// read as bytes and, when long, parsed item by item (each hit, each doc), never as one string. A
// string of more than 128 KiB is a large object for V8, allocated alone with its own mmap and
// unmapped after: flattening a read-ahead answer of 101 hits (263 KB) into one string for
// JSON.parse cost 1.5 ms of CPU, against 0.03 ms at 104 KB (docs/benchmarks.md, Large answers).
// Each item is a few KB.

/**
 * Answers longer than this are parsed item by item. Below it, one string of the answer is a regular
 * heap object, and parsing it at once costs less than splitting it: 26 hits (68 KB) took 1.05-1.37
 * times the CPU item by item, where 101 hits (263 KB) took 0.52-0.82 (docs/benchmarks.md, Large
 * answers). V8's limit for a regular object is 128 KiB; an ASCII answer is one byte a character.
 */
const SPLIT_ABOVE_BYTES = 120_000;

/** How every item of a search's hits and of a multi-get's docs starts (see itemsOf). */
const ITEM = Buffer.from('{"_index":"');

/** What closes the list of items: hits.hits then hits then the answer, or docs then the answer. */
export type ItemsClose = ']}}' | ']}';

/**
 * The answer's items, each parsed from its own bytes; undefined when the answer is not shaped as
 * this expects, and the caller parses it whole. Every item of a search's hits and of a multi-get's
 * docs is an object whose first key is `_index`, and `{"_index":"` cannot occur inside a JSON
 * string (its quotes would be escaped there) nor inside a UTF-8 sequence (all its bytes are
 * ASCII), so each occurrence starts an item. The split is then checked: every item must parse
 * alone, items must be separated by a comma, the answer must end with the list's `close`, and what
 * precedes the first item must parse, closed, to an answer whose list is empty.
 */
export function itemsOf(bytes: Buffer, close: ItemsClose): unknown[] | undefined {
  const starts: number[] = [];
  for (let at = bytes.indexOf(ITEM); at !== -1; at = bytes.indexOf(ITEM, at + ITEM.length)) {
    starts.push(at);
  }
  const end = bytes.length - close.length;
  const first = starts[0];
  if (first === undefined || bytes.toString('latin1', end) !== close) return undefined;
  try {
    const items = starts.map((start, i) => {
      const next = starts[i + 1];
      if (next !== undefined && bytes[next - 1] !== 0x2c) throw new SyntaxError('not a list');
      return JSON.parse(bytes.toString('utf8', start, next === undefined ? end : next - 1));
    });
    const head = JSON.parse(bytes.toString('utf8', 0, first) + close) as unknown;
    return listOf(head, close)?.length === 0 ? items : undefined;
  } catch {
    return undefined;
  }
}

/** The answer's list of items: hits.hits, or docs. */
function listOf(answer: unknown, close: ItemsClose): unknown[] | undefined {
  const list =
    close === ']}}'
      ? (answer as { hits?: { hits?: unknown } } | null)?.hits?.hits
      : (answer as { docs?: unknown } | null)?.docs;
  return Array.isArray(list) ? list : undefined;
}

/**
 * The items of the answer to `call`, which must ask the client for the answer as a stream
 * (`{ asStream: true }`): a failed answer is thrown as the client would throw it without
 * (ResponseError), and a connection lost while reading as ConnectionError, so that searchCall
 * treats both as before. The call's deadline covers reading the stream too: past it the stream is
 * destroyed, and the read fails as a lost connection (deadline-connection.ts).
 */
export async function answerItems(
  call: () => Promise<ApiResponse>,
  close: ItemsClose,
): Promise<unknown[]> {
  const answer = await call();
  let bytes: Buffer;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body as Readable) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  } catch (err) {
    throw new errors.ConnectionError((err as Error).message);
  }
  const encoding = String(answer.headers?.['content-encoding'] ?? '');
  if (/gzip|deflate/i.test(encoding)) bytes = unzipSync(bytes);
  const status = answer.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    throw new errors.ResponseError({ ...answer, body: parsedOrText(bytes) });
  }
  // A short answer is one regular string, parsed at once; a long one item by item, unless it is
  // not shaped as expected (no items, an engine that writes its answers otherwise).
  const items = bytes.length > SPLIT_ABOVE_BYTES ? itemsOf(bytes, close) : undefined;
  return items ?? listOf(parsedWhole(bytes), close) ?? [];
}

/** The answer parsed whole; unreadable, it fails as the client's own parse would. */
function parsedWhole(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new errors.DeserializationError((err as Error).message, text);
  }
}

function parsedOrText(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
