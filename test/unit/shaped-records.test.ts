import crypto from 'node:crypto';
import { recordDigest, recordText, storedRecord } from '../../src/domain/record-text';
import { projection, sparseRecord } from '../../src/domain/sparse-fields';
import { recordShaper, SHAPED_CHARACTERS } from '../../src/service/shaped-records';
import { makeRecord } from '../support/fixtures';

// A page's sparse records are made once per stored record and projection, and shared by the
// requests that ask for the same fields again, within a bound (src/service/shaped-records.ts).

const stored = () => {
  const plain = makeRecord({ title: 'Rust "engineer" \u00e9t\u00e9' });
  const json = JSON.stringify(plain);
  return { plain, record: storedRecord(plain.id, json, recordDigest(json)) };
};

it('shapes exactly as sparseRecord does, in record order, for stored and plain records', () => {
  const { plain, record } = stored();
  const fields = ['rate', 'title', 'employer'];
  const [fromStored] = recordShaper(fields)([record]);
  const [fromPlain] = recordShaper(fields)([plain]);
  expect(fromStored).toEqual(sparseRecord(plain, projection(fields)));
  expect(Object.keys(fromStored ?? {})).toEqual(['id', 'title', 'employer', 'rate']);
  expect(JSON.stringify(fromPlain)).toBe(JSON.stringify(fromStored));
});

it('gives the same sparse object to every request asking the same fields of the same record', () => {
  const { plain, record } = stored();
  const first = recordShaper(['title', 'rate'])([record])[0];
  // Another object for the same stored record (as a new search answer gives), fields in any order.
  const json = JSON.stringify(plain);
  const again = recordShaper(['rate', 'title', 'id'])([
    storedRecord(plain.id, json, recordDigest(json)),
  ])[0];
  expect(again).toBe(first);
  // So its text (and digest, and bytes) is made once.
  expect(recordText(again ?? {})).toBe(recordText(first ?? {}));
  expect(recordShaper(['title'])([record])[0]).not.toBe(first);
});

it('shapes a record built in this process afresh (finding it again would need a hash of it)', () => {
  const { plain } = stored();
  const first = recordShaper(['title'])([plain])[0];
  const again = recordShaper(['title'])([plain])[0];
  expect(again).toEqual(first);
  expect(again).not.toBe(first);
});

it('keeps a bounded number of characters of sparse JSON, the least recently used going first', () => {
  const long = (title: string) => {
    const plain = makeRecord({ title });
    const json = JSON.stringify(plain);
    return storedRecord(plain.id, json, recordDigest(json));
  };
  const first = long('x'.repeat(10_000));
  const made = recordShaper(['title'])([first])[0];
  expect(recordShaper(['title'])([first])[0]).toBe(made);
  // Records of over 10,000 characters each, enough to pass the bound: the first is let go.
  const count = Math.ceil(SHAPED_CHARACTERS / 10_000);
  const others = Array.from({ length: count }, (_, i) => long(`${i}`.padEnd(10_000, 'y')));
  recordShaper(['title'])(others);
  const again = recordShaper(['title'])([first])[0];
  expect(again).toEqual(made);
  expect(again).not.toBe(made);
});

it('shares only frozen objects, and passes records through untouched without fields', () => {
  const { record } = stored();
  const [sparse] = recordShaper(['title'])([record]);
  expect(Object.isFrozen(sparse)).toBe(true);
  expect(recordShaper(undefined)([record])[0]).toBe(record);
});

it('gives a made text the digest of its JSON, hashed on first use and once', () => {
  const { plain } = stored();
  const hash = jest.spyOn(crypto, 'createHash');
  try {
    const text = recordText({ ...plain });
    expect(text.json).toBe(JSON.stringify(plain));
    expect(hash).not.toHaveBeenCalled();
    const digest = text.digest;
    expect(hash).toHaveBeenCalledTimes(1);
    expect(text.digest).toBe(digest);
    expect(hash).toHaveBeenCalledTimes(1);
    expect(digest).toBe(recordDigest(text.json));
  } finally {
    hash.mockRestore();
  }
});
