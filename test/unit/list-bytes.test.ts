import { recordDigest, storedRecord } from '../../src/domain/record-text';
import { listEnvelope } from '../../src/service/envelopes';
import { AssembledBody } from '../../src/infra/reply-buffers';
import { listJsonPieces, listJsonStringPieces } from '../../src/service/list-bytes';
import { makeRecord } from '../support/fixtures';

// An MCP list result's texts written from each record's kept UTF-8 bytes must be byte for byte
// what encoding the serialized body gives (src/service/list-bytes.ts).

const first = makeRecord({ title: 'Rust "engineer" \u2028 <script>\\' });
const second = makeRecord({ title: 'Data \u00e9t\u00e9 \ud83d\ude80' });
const lone = makeRecord({ title: 'lone \ud800 surrogate, tab\t and \u0001' });
const json = JSON.stringify(second);
const fromIndex = storedRecord(second.id, json, recordDigest(json));
const page = (requestId: string, list: object[], cursor: string | null = 'c1') =>
  listEnvelope(list as never, cursor, 25, requestId, { job_family: ['data'] });

describe('listJsonPieces and listJsonStringPieces', () => {
  it.each([
    ['two records', [first, second]],
    ['a stored record, non-ASCII and a lone surrogate', [lone, fromIndex, first]],
    ['no record', []],
  ])(
    'are the bytes of the body and of its text block (%s), on first and repeated use',
    (_l, list) => {
      for (const id of ['r1', 'r2']) {
        const body = page(id, list, id === 'r2' ? null : 'c1');
        const pieces = listJsonPieces(body);
        const text = listJsonStringPieces(body);
        if (!pieces || !text) throw new Error('a list envelope has pieces');
        expect(AssembledBody.of(pieces).bytes).toEqual(Buffer.from(JSON.stringify(body)));
        expect(AssembledBody.of(text).bytes).toEqual(
          Buffer.from(JSON.stringify(JSON.stringify(body))),
        );
      }
    },
  );

  it('keep each record its bytes: a repeated page encodes no record again', () => {
    const pieces = listJsonPieces(page('a', [first, second]));
    const again = listJsonPieces(page('b', [first, second]));
    expect(again?.[1]).toBe(pieces?.[1]);
    expect(again?.[3]).toBe(pieces?.[3]);
  });

  it('are null for anything that is not a list envelope', () => {
    const count = { count: 3, meta: { request_id: 'x', applied_filters: {} } };
    expect(listJsonPieces(count as never)).toBeNull();
    expect(listJsonStringPieces(count as never)).toBeNull();
  });
});
