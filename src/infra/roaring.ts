// A set of 31-bit integers kept as a roaring bitmap, serialized in the portable format that
// OpenSearch's bitmap terms filter reads (`terms` with `value_type: bitmap`, base64). Only what that needs: add, has, size and the serialization, so no package (the maintained
// one, roaring-wasm, wants an async start and memory freed by hand; the native one downloads a
// binary at install). Format (RoaringFormatSpec, without run containers):
//   cookie 12346 (u32) · container count (u32) · per container: key (u16), cardinality - 1 (u16) ·
//   per container: its byte offset from the start (u32) · the containers: an array of sorted u16
//   when the cardinality is at most 4096, else a bitmap of 1024 u64 words; all little-endian.

const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
/** Past this cardinality a container is a bitmap (the reader decides by cardinality alone). */
const ARRAY_MAX = 4096;
const BITMAP_BYTES = 8192;

type Container = { values: number[] } | { words: Uint32Array; cardinality: number };

export class RoaringSet {
  private readonly containers = new Map<number, Container>();
  private count = 0;
  private encoded: string | null = null;

  constructor(values: Iterable<number> = []) {
    for (const v of values) this.add(v);
  }

  get size(): number {
    return this.count;
  }

  /** Adds `value` (0 to 2^31 - 1, the range of an integer field); false when it was there. */
  add(value: number): boolean {
    if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
      throw new RangeError(`not a record number: ${value}`);
    }
    const key = value >>> 16;
    const low = value & 0xffff;
    const c = this.containers.get(key);
    if (!c) {
      this.containers.set(key, { values: [low] });
    } else if ('values' in c) {
      const at = lowerBound(c.values, low);
      if (c.values[at] === low) return false;
      c.values.splice(at, 0, low);
      if (c.values.length > ARRAY_MAX) this.containers.set(key, toBitmap(c.values));
    } else {
      const bit = 1 << (low & 31);
      const word = c.words[low >>> 5] as number;
      if (word & bit) return false;
      c.words[low >>> 5] = word | bit;
      c.cardinality++;
    }
    this.count++;
    this.encoded = null;
    return true;
  }

  has(value: number): boolean {
    const c = this.containers.get(value >>> 16);
    if (!c) return false;
    const low = value & 0xffff;
    if ('values' in c) return c.values[lowerBound(c.values, low)] === low;
    return (((c.words[low >>> 5] as number) >>> (low & 31)) & 1) === 1;
  }

  /** The portable serialization, base64 (kept until the next add). */
  toBase64(): string {
    this.encoded ??= this.serialize().toString('base64');
    return this.encoded;
  }

  serialize(): Buffer {
    const keys = [...this.containers.keys()].sort((a, b) => a - b);
    const n = keys.length;
    const header = 8 + 4 * n + 4 * n;
    let size = header;
    for (const key of keys) size += containerBytes(this.containers.get(key) as Container);
    const out = Buffer.alloc(size);
    out.writeUInt32LE(SERIAL_COOKIE_NO_RUNCONTAINER, 0);
    out.writeUInt32LE(n, 4);
    let offset = header;
    keys.forEach((key, i) => {
      const c = this.containers.get(key) as Container;
      const cardinality = 'values' in c ? c.values.length : c.cardinality;
      out.writeUInt16LE(key, 8 + 4 * i);
      out.writeUInt16LE(cardinality - 1, 8 + 4 * i + 2);
      out.writeUInt32LE(offset, 8 + 4 * n + 4 * i);
      if ('values' in c) {
        for (const v of c.values) offset = out.writeUInt16LE(v, offset);
      } else {
        // Two little-endian u32 words make one little-endian u64 word.
        for (const w of c.words) offset = out.writeUInt32LE(w, offset);
      }
    });
    return out;
  }
}

function containerBytes(c: Container): number {
  return 'values' in c ? 2 * c.values.length : BITMAP_BYTES;
}

function toBitmap(values: readonly number[]): Container {
  const words = new Uint32Array(BITMAP_BYTES / 4);
  for (const v of values) words[v >>> 5] = (words[v >>> 5] as number) | (1 << (v & 31));
  return { words, cardinality: values.length };
}

/** The first index whose value is >= v. */
function lowerBound(values: readonly number[], v: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
