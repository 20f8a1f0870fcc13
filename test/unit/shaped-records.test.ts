import { recordDigest, recordText, storedRecord } from '../../src/domain/record-text';
import { projection, sparseRecord } from '../../src/domain/sparse-fields';
import { recordShaper } from '../../src/service/shaped-records';
import { makeRecord } from '../support/fixtures';

// A page's sparse records are made once per record and projection, and shared by the requests
// that ask for the same fields again (src/service/shaped-records.ts).

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

it('gives the same sparse object to every request asking the same fields, in any order', () => {
  const { record } = stored();
  const first = recordShaper(['title', 'rate'])([record])[0];
  const again = recordShaper(['rate', 'title', 'id'])([record])[0];
  expect(again).toBe(first);
  // So its text (and digest, and bytes) is made once.
  expect(recordText(again ?? {})).toBe(recordText(first ?? {}));
  expect(recordShaper(['title'])([record])[0]).not.toBe(first);
});

it('keeps a few projections per record, the oldest going first', () => {
  const { record } = stored();
  const shapes = [['title'], ['rate'], ['employer'], ['location'], ['engagement_models']];
  const made = shapes.map((fields) => recordShaper(fields)([record])[0]);
  // Five projections, four kept: the first was let go and is made anew, equal but not the same.
  const first = recordShaper(shapes[0])([record])[0];
  expect(first).toEqual(made[0]);
  expect(first).not.toBe(made[0]);
  expect(recordShaper(shapes[4])([record])[0]).toBe(made[4]);
});

it('shares only frozen objects, and passes records through untouched without fields', () => {
  const { record } = stored();
  const [sparse] = recordShaper(['title'])([record]);
  expect(Object.isFrozen(sparse)).toBe(true);
  expect(recordShaper(undefined)([record])[0]).toBe(record);
});

it('gives a made text the digest of its JSON, on first use', () => {
  const { plain } = stored();
  const text = recordText({ ...plain });
  expect(text.json).toBe(JSON.stringify(plain));
  expect(text.digest).toBe(recordDigest(text.json));
  expect(text.digest).toBe(text.digest);
});
