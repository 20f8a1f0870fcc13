// A small seeded PRNG for synthetic data. Seeded output must be identical on every machine and
// Node version, so Math.random (unseeded) and crypto (non-reproducible) are out.

/** splitmix32: spreads a seed over the state so nearby seeds (1, 2, 3) give unrelated streams. */
function splitmix32(state: number): [next: number, out: number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [next, (z ^ (z >>> 16)) >>> 0];
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex32 = (n: number): string =>
  `${HEX[n >>> 24]}${HEX[(n >>> 16) & 255]}${HEX[(n >>> 8) & 255]}${HEX[n & 255]}`;

/** A value with a relative weight, for `Rng.weighted`. */
export type Weighted<T> = readonly (readonly [value: T, weight: number])[];

/** sfc32 (Small Fast Chaotic, 128-bit state): fast, passes PractRand, trivially portable. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer: ${seed}`);
    // Fold both halves of the seed in, so seeds above 2^32 do not alias smaller ones.
    let s = (seed >>> 0) ^ Math.imul(Math.floor(seed / 4294967296) | 0, 0x27d4eb2d);
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, out] = splitmix32(s);
      s = next;
      words.push(out);
    }
    [this.a, this.b, this.c, this.d] = words as [number, number, number, number];
    for (let i = 0; i < 12; i++) this.u32(); // warm-up: sfc32's first outputs are weakly mixed
  }

  /** Uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[Math.floor(this.float() * items.length)] as T;
  }

  weighted<T>(table: Weighted<T>): T {
    let total = 0;
    for (const [, weight] of table) total += weight;
    let roll = this.float() * total;
    for (const [value, weight] of table) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = table[table.length - 1];
    if (!last) throw new RangeError('cannot pick from an empty table');
    return last[0];
  }

  /** `count` distinct items in random order (partial Fisher-Yates on a copy). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = items.slice();
    const n = Math.min(count, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.float() * (pool.length - i));
      const tmp = pool[i] as T;
      pool[i] = pool[j] as T;
      pool[j] = tmp;
    }
    return pool.slice(0, n);
  }

  /** A random RFC 9562 version-4 UUID drawn from this stream (so it is reproducible). */
  uuid(): string {
    const a = this.u32();
    const b = ((this.u32() & 0xffff0fff) | 0x00004000) >>> 0; // version nibble = 4
    const c = ((this.u32() & 0x3fffffff) | 0x80000000) >>> 0; // variant bits = 10
    const d = this.u32();
    const hb = hex32(b);
    const hc = hex32(c);
    return `${hex32(a)}-${hb.slice(0, 4)}-${hb.slice(4)}-${hc.slice(0, 4)}-${hc.slice(4)}${hex32(d)}`;
  }

  /** A string of `length` random lower-case hex digits (external ids). */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += hex32(this.u32());
    return out.slice(0, length);
  }

  /** A string of `length` random decimal digits, not starting with 0 (numeric external ids). */
  digits(length: number): string {
    let out = String(this.int(1, 9));
    // Nine digits per draw; the modulo bias (2^32 mod 10^9) is irrelevant for fake ids.
    while (out.length < length) out += String(this.u32() % 1e9).padStart(9, '0');
    return out.slice(0, length);
  }
}
