import { createHash } from 'node:crypto';
import { entityTag } from '../../src/infra/entity-tag';
import { listEnvelope } from '../../src/service/envelopes';
import { recordDigest } from '../../src/domain/record-text';
import { listJson, listJsonBody, listRepresentationTag } from '../../src/service/list-json';
import { makeRecord } from '../support/fixtures';

// A list page's records are serialized once and reused; the bytes and the entity tags
// must be those of serializing the whole body every time.

const first = makeRecord({ title: 'Rust "engineer" \u2028 <script>\\' });
const second = makeRecord({ title: 'Data \u00e9t\u00e9 \ud83d\ude80' });
const records = [first, second];
const page = (requestId: string, list = records, cursor: string | null = 'c1') =>
  listEnvelope(list, cursor, 25, requestId, { job_family: ['data'] });

describe('listJson', () => {
  it('is byte for byte JSON.stringify of the body, on first and repeated use', () => {
    for (const id of ['r1', 'r2']) expect(listJson(page(id))).toBe(JSON.stringify(page(id)));
    expect(listJson(page('r3', []))).toBe(JSON.stringify(page('r3', [])));
  });

  it('serializes anything that is not a list envelope as JSON.stringify does', () => {
    const count = { count: 3, meta: { request_id: 'x', applied_filters: {} } };
    expect(listJson(count as never)).toBe(JSON.stringify(count));
  });
});

describe('listJsonBody', () => {
  it('is the string of a short page, and the same bytes of a long page', () => {
    expect(listJsonBody(page('r1'))).toBe(JSON.stringify(page('r1')));
    // 100 records of about 2 KB, some not ASCII: past 60,000 characters of records' text.
    const long = Array.from({ length: 100 }, (_, i) =>
      makeRecord({ title: `${i % 7 === 0 ? 'Z\u00fcrich \ud83d\ude80 ' : ''}${'x'.repeat(2000)}` }),
    );
    const body = listJsonBody(page('r2', long));
    if (typeof body === 'string') throw new Error('a long page is written from bytes');
    // Buffer.compare: jest's toEqual walks 200 KB of bytes one by one (seconds).
    expect(Buffer.compare(body.bytes, Buffer.from(JSON.stringify(page('r2', long))))).toBe(0);
  });
});

describe('listRepresentationTag', () => {
  it('ignores only the request id', () => {
    const tag = listRepresentationTag(page('a'));
    expect(listRepresentationTag(page('b'))).toBe(tag);
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{32}"$/);
    expect(listRepresentationTag(page('a', [first]))).not.toBe(tag);
    expect(listRepresentationTag(page('a', [second, first]))).not.toBe(tag);
    expect(listRepresentationTag(page('a', records, null))).not.toBe(tag);
    const changed = [{ ...first, title: 'another title' }, second];
    expect(listRepresentationTag(page('a', changed))).not.toBe(tag);
    const filters = listEnvelope(records, 'c1', 25, 'a', { job_family: ['web'] });
    expect(listRepresentationTag(filters)).not.toBe(tag);
  });

  it('is the entity tag of the page digested as one text (tags clients hold stay valid)', () => {
    const body = page('a');
    const text = [
      ...body.data.map((r) => `${recordDigest(JSON.stringify(r))},`),
      JSON.stringify(body.pagination),
      JSON.stringify({ ...body.meta, request_id: '' }),
    ].join('');
    expect(listRepresentationTag(body)).toBe(entityTag(text, 'weak'));
    const sha = createHash('sha256').update(text).digest('base64url').slice(0, 32);
    expect(listRepresentationTag(body)).toBe(`W/"${sha}"`);
  });
});
