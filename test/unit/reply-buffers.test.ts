import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { AssembledBody, endWith, pooledBuffers } from '../../src/infra/reply-buffers';

// Replies assembled in pooled buffers (src/infra/reply-buffers.ts): the bytes are exactly the
// pieces', a buffer serves again only once its reply is written, and nothing past a reply's own
// end (an earlier reply's bytes) is ever sent.

const concat = (pieces: ReadonlyArray<string | Uint8Array>) =>
  Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

/** Takes every buffer out of the pool, so a test starts from an empty one. */
function drainPool(): void {
  const held: AssembledBody[] = [];
  while (pooledBuffers() > 0) held.push(AssembledBody.of(['x']));
}

describe('AssembledBody.of', () => {
  it('holds exactly the bytes of its pieces (strings of any text, and bytes)', () => {
    // Characters of one to four UTF-8 bytes, JSON's escapes and a lone surrogate (written as
    // U+FFFD by both); a fixed set, as fast-check's 'binary' unit costs a second to set up.
    const unit = fc.constantFrom(
      'a',
      '"',
      '\\',
      '\u0001',
      '\u00e9',
      '\u20ac',
      '\ud83d\ude80',
      '\ud800',
    );
    const text = fc.string({ unit, maxLength: 40 });
    const piece = fc.oneof(
      text,
      text.map((s) => Buffer.from(s)),
      fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const body = AssembledBody.of(pieces);
        // Buffer#equals: jest's toEqual compares a buffer element by element, a thousand times slower.
        const same = body.bytes.equals(concat(pieces));
        body.release();
        return same;
      }),
    );
  });

  it('reuses a released buffer, once, and never one still held', () => {
    drainPool();
    const first = AssembledBody.of(['{"a":', Buffer.from('1'), '}']);
    const second = AssembledBody.of(['{"b":2}']);
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    first.release();
    first.release();
    expect(pooledBuffers()).toBe(1);
    const third = AssembledBody.of(['{"c":3}']);
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    expect(third.bytes.toString()).toBe('{"c":3}');
    expect(second.bytes.toString()).toBe('{"b":2}');
    expect(pooledBuffers()).toBe(0);
  });

  it('gives a body larger than a pooled buffer a buffer of its own, never pooled', () => {
    drainPool();
    const big = 'x'.repeat(600 * 1024);
    const body = AssembledBody.of(['[', big, ']']);
    expect(body.bytes.length).toBe(big.length + 2);
    body.release();
    expect(pooledBuffers()).toBe(0);
  });

  it('keeps at most 16 buffers', () => {
    drainPool();
    const bodies = Array.from({ length: 20 }, (_, i) => AssembledBody.of([String(i)]));
    for (const body of bodies) body.release();
    expect(pooledBuffers()).toBe(16);
  });
});

describe('endWith', () => {
  let server: Server;
  let port: number;
  const replies: Array<string | (() => AssembledBody)> = [];
  /** Each response's 'finish', heard after endWith's own listener (registered before it). */
  const finished: Array<Promise<void>> = [];

  beforeAll(async () => {
    server = createServer((_req, res) => {
      const next = replies.shift() ?? '';
      endWith(res, typeof next === 'string' ? next : next());
      finished.push(new Promise((resolve) => res.once('finish', () => resolve())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = () =>
    new Promise<string>((resolve, reject) => {
      request({ port, host: '127.0.0.1', agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      })
        .on('error', reject)
        .end();
    });

  it("returns a buffer to the pool once written, and sends no byte past a reply's end", async () => {
    drainPool();
    const long = `{"long":"${'y'.repeat(100_000)}"}`;
    replies.push(
      () => AssembledBody.of([long]),
      () => AssembledBody.of(['{"short":', '1}']),
    );
    expect(await get()).toBe(long);
    await finished.shift();
    expect(pooledBuffers()).toBe(1);
    // The short reply is written into the long one's buffer: only its own bytes go out.
    expect(await get()).toBe('{"short":1}');
    await finished.shift();
    expect(pooledBuffers()).toBe(1);
  });

  it('writes a string body as it is', async () => {
    replies.push('plain');
    expect(await get()).toBe('plain');
    await finished.shift();
  });
});
