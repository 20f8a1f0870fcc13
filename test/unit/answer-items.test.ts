import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { ApiResponse } from '@opensearch-project/opensearch';
import { ApiError } from '../../src/domain/errors';
import { answerItems, itemsOf } from '../../src/search/answer-items';
import { searchCall } from '../../src/search/client';

// A page's answer is parsed hit by hit from its bytes (search/answer-items.ts); whatever the
// texts hold, the items must be exactly the answer's, and anything not shaped as expected must be
// left to the whole parse (undefined), never split wrongly.

const searchAnswer = (hits: unknown[], tail: object = {}) => ({
  took: 3,
  timed_out: false,
  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
  hits: { max_score: null, hits },
  ...tail,
});
const hit = (id: string, text: string, sort: unknown[] = [1, id]) => ({
  _index: 'opportunities__000001',
  _id: id,
  _score: null,
  _source: { id, record_json: text, record_digest: 'd' },
  sort,
});
const bytes = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

it('parses each hit of a search answer from its own bytes', () => {
  const hits = [
    hit('a', JSON.stringify({ title: 'Z\u00fcrich \ud83d\ude80', nested: { _index: 'x' } })),
    hit('b', '{"_index":"not a hit"}'),
    hit('c', '\\u00e9 ,{"_index":" ]}}'),
  ];
  expect(itemsOf(bytes(searchAnswer(hits)), ']}}')).toEqual(hits);
});

it('parses each doc of a multi-get answer, found or not', () => {
  const docs = [
    { _index: 'i', _id: 'a', _version: 1, found: true, _source: { id: 'a', record_json: '{}' } },
    { _index: 'i', _id: 'b', found: false },
  ];
  expect(itemsOf(bytes({ docs }), ']}')).toEqual(docs);
});

it('leaves to the whole parse what it cannot split for certain', () => {
  // No hits; hits followed by aggregations; a truncated answer; a list closed otherwise.
  expect(itemsOf(bytes(searchAnswer([])), ']}}')).toBeUndefined();
  const aggs = bytes(searchAnswer([hit('a', '{}')], { aggregations: { n: { value: 1 } } }));
  expect(itemsOf(aggs, ']}}')).toBeUndefined();
  const whole = bytes(searchAnswer([hit('a', '{}'), hit('b', '{}')]));
  expect(itemsOf(whole.subarray(0, whole.length - 10), ']}}')).toBeUndefined();
  expect(
    itemsOf(bytes({ docs: [{ _index: 'i', _id: 'a', found: false }] }), ']}}'),
  ).toBeUndefined();
  // Items whose first key is not _index are not items to this reader.
  expect(itemsOf(bytes(searchAnswer([{ _id: 'a', _index: 'i' }])), ']}}')).toBeUndefined();
});

it('gives exactly the hits of any answer, whatever their texts and sort values hold', () => {
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom('{"_index":"', '\\', '"', ',', ']}}', '\u00e9', '\ud83d\ude80', '\u2028'),
      fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
    ),
  });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.uuid(), text, fc.array(fc.oneof(fc.integer(), text))), {
        minLength: 1,
        maxLength: 8,
      }),
      (rows) => {
        const hits = rows.map(([id, t, sort]) => hit(id, t, sort));
        expect(itemsOf(bytes(searchAnswer(hits)), ']}}')).toEqual(hits);
      },
    ),
    { numRuns: 500 },
  );
});

/** The client's answer as a stream, as `{ asStream: true }` gives it. */
const streamed = (status: number, body: Readable, headers: Record<string, string> = {}) =>
  (async () =>
    ({
      statusCode: status,
      headers,
      body,
    }) as unknown as ApiResponse) as () => Promise<ApiResponse>;

it('reads the items of a streamed answer, in pieces or compressed', async () => {
  const hits = [hit('a', '{"t":"\u00e9"}'), hit('b', '{}')];
  const whole = bytes(searchAnswer(hits));
  const pieces = Readable.from([whole.subarray(0, 7), whole.subarray(7, 200), whole.subarray(200)]);
  await expect(answerItems(streamed(200, pieces), ']}}')).resolves.toEqual(hits);
  const gzipped = Readable.from([gzipSync(whole)]);
  await expect(
    answerItems(streamed(200, gzipped, { 'content-encoding': 'gzip' }), ']}}'),
  ).resolves.toEqual(hits);
  // An answer it does not split (no hits) is parsed whole.
  const empty = Readable.from([bytes(searchAnswer([]))]);
  await expect(answerItems(streamed(200, empty), ']}}')).resolves.toEqual([]);
  // A long answer (over V8's 128 KiB for a regular string) is read item by item.
  const long = Array.from({ length: 60 }, (_, i) =>
    hit(`h${i}`, `{"t":"${'x\u00e9'.repeat(1500)}"}`),
  );
  const longBytes = bytes(searchAnswer(long));
  expect(longBytes.length).toBeGreaterThan(128 * 1024);
  const parse = jest.spyOn(JSON, 'parse');
  try {
    await expect(answerItems(streamed(200, Readable.from([longBytes])), ']}}')).resolves.toEqual(
      long,
    );
    // Never one string of the whole answer: one parse an item, and one of what precedes them.
    expect(parse.mock.calls.every(([text]) => String(text).length < 10_000)).toBe(true);
  } finally {
    parse.mockRestore();
  }
});

it('fails as the client would: an engine error, a lost connection, an unreadable answer', async () => {
  const refusal = (status: number) =>
    searchCall(() =>
      answerItems(
        streamed(status, Readable.from([bytes({ error: { type: 'x', reason: 'y' }, status })])),
        ']}}',
      ),
    );
  // contract §20.5: every engine failure is 503 search_unavailable; a 400 keeps the request id.
  for (const status of [503, 404, 400]) {
    const err = (await refusal(status).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.code, err.status, err.keepsRequestId === true]).toEqual([
      'search_unavailable',
      503,
      status === 400,
    ]);
    expect((err.cause as { name: string; meta: { statusCode: number } }).meta.statusCode).toBe(
      status,
    );
  }
  // The engine answers a query of too many clauses 500: a limit of ours, not an outage, so the
  // request id is kept as for a 400 (it was spent, as for an engine down).
  const clauses = (await searchCall(() =>
    answerItems(
      streamed(
        500,
        Readable.from([
          bytes({
            error: {
              root_cause: [{ type: 'too_many_nested_clauses', reason: 'maxClauseCount is 1024' }],
              type: 'search_phase_execution_exception',
            },
            status: 500,
          }),
        ]),
      ),
      ']}}',
    ),
  ).catch((e: unknown) => e)) as ApiError;
  expect([clauses.code, clauses.keepsRequestId === true]).toEqual(['search_unavailable', true]);
  const lost = new Readable({
    read() {
      this.push(Buffer.from('{"hits":{"hits":[{"_index":"i"'));
      this.destroy(new Error('socket hang up'));
    },
  });
  const cut = (await searchCall(() => answerItems(streamed(200, lost), ']}}')).catch(
    (e: unknown) => e,
  )) as ApiError;
  expect([cut.code, (cut.cause as Error).name]).toEqual(['search_unavailable', 'ConnectionError']);
  const garbled = Readable.from([Buffer.from('{"hits":')]);
  const bad = (await searchCall(() => answerItems(streamed(200, garbled), ']}}')).catch(
    (e: unknown) => e,
  )) as ApiError;
  expect([bad.code, (bad.cause as Error).name]).toEqual([
    'search_unavailable',
    'DeserializationError',
  ]);
});
