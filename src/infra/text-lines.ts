import { createReadStream } from 'node:fs';

/** A line of a text file: its text, or why it has none. */
export type TextLine = { text: string } | { problem: string };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The lines of a UTF-8 file (LF or CRLF), each decoded alone. readline built every line as one
 * string whatever its length, so a line past V8's longest string (about 512 MB) ended the whole
 * import with a RangeError, and it decoded invalid UTF-8 into U+FFFD without a word. Here a line
 * longer than `maxBytes` is skipped as it streams by, never held, and reported, as is one that is
 * not valid UTF-8. A final newline ends the last line; it starts no empty one.
 */
export async function* textLines(file: string, maxBytes: number): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  const line = (): TextLine => {
    if (tooLong) return { problem: `longer than ${maxBytes} bytes` };
    let bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
    if (bytes.at(-1) === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
    try {
      return { text: decoder.decode(bytes) };
    } catch {
      return { problem: 'not valid UTF-8' };
    }
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (!tooLong && size + piece.length > maxBytes) {
        tooLong = true;
        parts = [];
      }
      if (!tooLong) parts.push(piece);
      size += piece.length;
      if (end === -1) break;
      yield line();
      parts = [];
      size = 0;
      tooLong = false;
      start = end + 1;
    }
  }
  if (size > 0) yield line();
}
