import type { ServerResponse } from 'node:http';

// A reply assembled from UTF-8 pieces (an MCP tool call's reply, a long REST list page) is copied
// into a buffer kept from an earlier reply instead of a new one. On the 2-core guests the bench
// runs on, a new 110-220 KB buffer cost more to fill than the copy itself: each of its pages is
// faulted in and zeroed by the kernel on first touch, and given back when the buffer is freed.
// Buffer.concat of an MCP reply's pieces took 0.17 ms of a call's 1.8 ms of CPU; the same copy
// into a buffer already touched takes 4-6 µs (docs/benchmarks.md, Warm reply buffers).
//
// A buffer goes back to the pool only once its reply has been handed to the kernel (the response's
// 'finish'); a reply whose connection closed first keeps its buffer, and the garbage collector
// takes it. The bytes past a reply's end are an earlier reply's and are never written: a body is
// always the subarray of its own length.

/** A pooled buffer's size: an MCP reply at the default result budget, or a REST page of 100. */
const BUFFER_BYTES = 512 * 1024;
/** Buffers kept at most (the replies a busy process has in flight at once); 8 MiB in all. */
const KEPT_BUFFERS = 16;

const free: Buffer[] = [];

/** UTF-8 pieces in order: strings (encoded as they are copied) and bytes. */
export type BodyPieces = ReadonlyArray<string | Uint8Array>;

/** The UTF-8 length of the pieces. */
export function piecesByteLength(pieces: BodyPieces): number {
  let length = 0;
  for (const p of pieces) length += typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.length;
  return length;
}

/** A body made of pieces, as one buffer; `release` once written out, so its buffer serves again. */
export class AssembledBody {
  private released = false;

  private constructor(
    readonly bytes: Buffer,
    private readonly pooled: Buffer | null,
  ) {}

  /** The pieces' bytes in one buffer: a pooled one when they fit, else a buffer of their own. */
  static of(pieces: BodyPieces): AssembledBody {
    if (piecesByteLength(pieces) > BUFFER_BYTES) {
      const own = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
      return new AssembledBody(own, null);
    }
    const buffer = free.pop() ?? Buffer.allocUnsafeSlow(BUFFER_BYTES);
    let at = 0;
    for (const p of pieces) {
      if (typeof p === 'string') at += buffer.write(p, at, 'utf8');
      else {
        buffer.set(p, at);
        at += p.length;
      }
    }
    return new AssembledBody(buffer.subarray(0, at), buffer);
  }

  /** The buffer may hold another reply: call only when nothing will read `bytes` again. */
  release(): void {
    if (this.released || this.pooled === null) return;
    this.released = true;
    if (free.length < KEPT_BUFFERS) free.push(this.pooled);
  }
}

/** Buffers waiting in the pool (tests). */
export const pooledBuffers = (): number => free.length;

/**
 * Ends `res` with `body`. An assembled body's buffer returns to the pool when the response has
 * been handed to the kernel ('finish'), and never if the connection closes first.
 */
export function endWith(res: ServerResponse, body: string | AssembledBody): void {
  if (typeof body === 'string') {
    res.end(body);
    return;
  }
  res.once('finish', () => body.release());
  res.end(body.bytes);
}
