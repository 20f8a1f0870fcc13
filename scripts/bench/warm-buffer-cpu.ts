// The CPU to assemble a reply from its pieces: Buffer.concat (a new buffer a reply) against
// AssembledBody.of (src/infra/reply-buffers.ts: a pooled buffer, released once written), for
// replies shaped like an MCP search's (25 records of ~2 KB, each twice, 110 KB) and a REST page of
// 100 (205 KB), alternating in one process. 16 replies are held at once, as 16 connections' are
// in flight, so a new buffer's pages are fresh, as in the API.
//   npx tsx scripts/bench/warm-buffer-cpu.ts [--rounds 3] [--replies 5000]
import { AssembledBody, type BodyPieces } from '../../src/infra/reply-buffers';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return Number(i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback);
};
const ROUNDS = arg('rounds', '3');
const REPLIES = arg('replies', '5000');
const IN_FLIGHT = 16;

/** `records` record texts of ~2 KB (a few non-ASCII), each `times` times, between short strings. */
function pieces(records: number, times: number): BodyPieces {
  const out: Array<string | Uint8Array> = ['{"jsonrpc":"2.0","id":1,"result":{"content":['];
  for (let t = 0; t < times; t++) {
    for (let r = 0; r < records; r++) {
      if (r > 0) out.push(',');
      const text = `{"id":"${r}","title":"Z\u00fcrich ${'x'.repeat(2000)}"}`;
      out.push(Buffer.from(text));
    }
    out.push('],"meta":{}}');
  }
  return out;
}

const ways = {
  concat: (p: BodyPieces) => {
    const bytes = Buffer.concat(p.map((x) => (typeof x === 'string' ? Buffer.from(x) : x)));
    return { bytes, release: () => undefined };
  },
  pooled: (p: BodyPieces) => AssembledBody.of(p),
};

function run(way: keyof typeof ways, p: BodyPieces): number {
  const held: Array<{ release(): void }> = [];
  const start = process.cpuUsage();
  for (let i = 0; i < REPLIES; i++) {
    held.push(ways[way](p));
    // The oldest reply in flight is written out: its buffer may serve again.
    if (held.length > IN_FLIGHT) held.shift()?.release();
  }
  const used = process.cpuUsage(start);
  for (const h of held) h.release();
  return (used.user + used.system) / 1000 / REPLIES;
}

const shapes = { 'MCP search, 25 records': pieces(25, 2), 'REST page of 100': pieces(100, 1) };
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, p] of Object.entries(shapes)) {
    const bytes = ways.pooled(p).bytes.length;
    const concat = run('concat', p);
    const pooled = run('pooled', p);
    console.log(
      `round ${round} ${name} (${bytes} B): concat ${(concat * 1000).toFixed(1)} µs, ` +
        `pooled ${(pooled * 1000).toFixed(1)} µs, ratio ${(pooled / concat).toFixed(2)}`,
    );
  }
}
