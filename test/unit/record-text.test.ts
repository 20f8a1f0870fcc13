import { recordDigest, recordText, storedRecord } from '../../src/domain/record-text';
import { sparseRecord, projection } from '../../src/domain/sparse-fields';
import { listEnvelope } from '../../src/service/envelopes';
import { listJson, listRepresentationTag } from '../../src/service/list-json';
import { makeRecord } from '../support/fixtures';

// A record read from the index carries its stored JSON text and digest; it must behave
// as the parsed record everywhere, and parse nothing until a field other than its id is read.

const plain = makeRecord({ title: 'Rust "engineer" \u2028 \u00e9t\u00e9 \ud83d\ude80' });
const json = JSON.stringify(plain);
const stored = () => storedRecord(plain.id, json, recordDigest(json));

it('is the parsed record for reads, keys, spread, `in` and JSON.stringify', () => {
  const record = stored();
  expect(record.title).toBe(plain.title);
  expect(Object.keys(record)).toEqual(Object.keys(plain));
  expect({ ...record }).toEqual(plain);
  expect(record).toEqual(plain);
  expect('rate' in record).toBe(true);
  expect('nothing' in record).toBe(false);
  expect(JSON.stringify(record)).toBe(json);
  expect(sparseRecord(record, projection(['title']))).toEqual({ id: plain.id, title: plain.title });
});

it('gives its id, text and digest without parsing', () => {
  const record = storedRecord('id-1', '{not json', 'digest-1');
  expect(record.id).toBe('id-1');
  expect(recordText(record)).toEqual({ json: '{not json', digest: 'digest-1' });
  expect(() => record.title).toThrow(SyntaxError);
});

it('is read-only', () => {
  const record = stored() as unknown as Record<string, unknown>;
  expect(Reflect.set(record, 'title', 'x')).toBe(false);
  expect(Reflect.deleteProperty(record, 'title')).toBe(false);
  expect(record.title).toBe(plain.title);
});

it('gives list bodies and tags equal to those of the plain record', () => {
  const of = (r: typeof plain) => listEnvelope([r], 'c', 25, 'req', { job_family: ['data'] });
  expect(listJson(of(stored()))).toBe(JSON.stringify(of(plain)));
  expect(listRepresentationTag(of(stored()))).toBe(listRepresentationTag(of(plain)));
});
