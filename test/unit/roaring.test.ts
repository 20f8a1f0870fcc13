import { RoaringSet } from '../../src/infra/roaring';

// The portable roaring serialization OpenSearch's bitmap terms filter reads.

/** A reader of the format written independently of the writer: the values, in order. */
function decode(bytes: Buffer): number[] {
  expect(bytes.readUInt32LE(0)).toBe(12346);
  const n = bytes.readUInt32LE(4);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = bytes.readUInt16LE(8 + 4 * i);
    const cardinality = bytes.readUInt16LE(8 + 4 * i + 2) + 1;
    let at = bytes.readUInt32LE(8 + 4 * n + 4 * i);
    if (cardinality <= 4096) {
      for (let j = 0; j < cardinality; j++, at += 2) out.push(key * 65536 + bytes.readUInt16LE(at));
    } else {
      for (let bit = 0; bit < 65536; bit++) {
        if ((bytes[at + (bit >>> 3)] as number) & (1 << (bit & 7))) out.push(key * 65536 + bit);
      }
    }
  }
  return out;
}

it('writes the bytes of the OpenSearch documentation example (pyroaring, {111, 222, 333})', () => {
  const set = new RoaringSet([333, 111, 222, 111]);
  expect(set.size).toBe(3);
  expect(set.toBase64()).toBe('OjAAAAEAAAAAAAIAEAAAAG8A3gBNAQ==');
});

it('an empty set is a cookie and no containers', () => {
  expect(new RoaringSet().serialize()).toEqual(Buffer.from([0x3a, 0x30, 0, 0, 0, 0, 0, 0]));
});

it('switches a container to a bitmap past 4096 values and keeps every offset right', () => {
  const dense = Array.from({ length: 5000 }, (_, i) => i * 3); // key 0: 5000 values → bitmap
  const sparse = [65536 * 2 + 7, 65536 * 2 + 1, 0x7fffffff]; // keys 2 and 32767: arrays
  const set = new RoaringSet([...sparse, ...dense]);
  const bytes = set.serialize();
  // Header: 3 containers, then (key, cardinality - 1) each, then offsets.
  expect(bytes.readUInt32LE(4)).toBe(3);
  expect([bytes.readUInt16LE(8), bytes.readUInt16LE(10)]).toEqual([0, 4999]);
  expect([bytes.readUInt16LE(12), bytes.readUInt16LE(14)]).toEqual([2, 1]);
  expect([bytes.readUInt16LE(16), bytes.readUInt16LE(18)]).toEqual([32767, 0]);
  const header = 8 + 3 * 4 + 3 * 4;
  expect(bytes.readUInt32LE(20)).toBe(header);
  expect(bytes.readUInt32LE(24)).toBe(header + 8192);
  expect(bytes.readUInt32LE(28)).toBe(header + 8192 + 4);
  expect(bytes.length).toBe(header + 8192 + 4 + 2);
  // The bitmap's first byte: values 0, 3 and 6 → bits 0, 3, 6.
  expect(bytes[header]).toBe(0b01001001);
  expect(decode(bytes)).toEqual([...dense, 65536 * 2 + 1, 65536 * 2 + 7, 0x7fffffff]);
});

it('holds each value once, answers membership, and re-encodes after an add', () => {
  const set = new RoaringSet();
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const values = new Set<number>();
  const added: boolean[] = [];
  const fresh: boolean[] = [];
  for (let i = 0; i < 30_000; i++) {
    const v = next() % 300_000;
    fresh.push(!values.has(v));
    values.add(v);
    added.push(set.add(v));
  }
  expect(added).toEqual(fresh);
  expect(set.size).toBe(values.size);
  const before = set.toBase64();
  expect(decode(Buffer.from(before, 'base64'))).toEqual([...values].sort((a, b) => a - b));
  const missing = [...Array(300_000).keys()].find((v) => !values.has(v)) as number;
  expect(set.has(missing)).toBe(false);
  expect(set.add(missing)).toBe(true);
  expect(set.has(missing)).toBe(true);
  expect(set.toBase64()).not.toBe(before);
});

it('refuses what an integer field cannot hold', () => {
  const set = new RoaringSet();
  expect(() => set.add(-1)).toThrow(RangeError);
  expect(() => set.add(2 ** 31)).toThrow(RangeError);
  expect(() => set.add(1.5)).toThrow(RangeError);
});
