import fc from 'fast-check';
import { parseRestQuery } from '../../src/domain/filters';
import type { CountFigures } from '../../src/service/count-extras';
import { countEnvelope, countJson } from '../../src/service/count-json';
import { representationTag } from '../../src/service/revalidation';
import { taxonomy } from './taxonomy-fixture';

// A repeated count's envelope is spliced from a kept shape; its bytes and entity
// tag must be those of serializing and hashing the whole body every time.

const parse = (query: Record<string, string>) => parseRestQuery('count', query, { taxonomy });

describe('countEnvelope and countJson', () => {
  it('are JSON.stringify and representationTag of the body, on first and repeated use', () => {
    const request = parse({ job_family: 'data', country: 'us' });
    for (const id of ['r1', 'r2', 'id "quoted" \u2028 \ud83d\ude80']) {
      const { body, etag } = countEnvelope(request, { count: 42 }, id);
      expect(countJson(body)).toBe(JSON.stringify(body));
      expect(etag).toBe(representationTag(body));
      expect(body.meta).toEqual({ request_id: id, applied_filters: request.appliedFilters });
    }
  });

  it('follows the figures when they change for the same request', () => {
    const request = parse({ remote: 'true' });
    const a = countEnvelope(request, { count: 1 }, 'x');
    const b = countEnvelope(request, { count: 2 }, 'x');
    expect(countJson(b.body)).toBe(JSON.stringify(b.body));
    expect(b.etag).toBe(representationTag(b.body));
    expect(b.etag).not.toBe(a.etag);
    const c = countEnvelope(request, { count: 1 }, 'y');
    expect(c.etag).toBe(a.etag);
  });

  it('reuses the parts of a cached answer and notices other parts', () => {
    const request = parse({ histogram: 'published', interval: 'week' });
    const histogram = [{ start: '2026-11-23T00:00:00.000Z', count: 2 }];
    const a = countEnvelope(request, { count: 2, histogram }, 'a');
    const b = countEnvelope(request, { count: 2, histogram: [...histogram] }, 'b');
    expect(b.etag).toBe(a.etag);
    const other = [{ start: '2026-11-30T00:00:00.000Z', count: 2 }];
    const others: CountFigures[] = [
      { count: 2, histogram: other },
      { count: 2 },
      { histogram, count: 2 },
    ];
    for (const figures of others) {
      const { body, etag } = countEnvelope(request, figures, 'c');
      expect(countJson(body)).toBe(JSON.stringify(body));
      expect(etag).toBe(representationTag(body));
    }
  });

  it('holds for any figures: groups, new counts, histograms, statistics', () => {
    const bucket = fc.record({ value: fc.oneof(fc.string(), fc.boolean()), count: fc.nat() });
    const figures: fc.Arbitrary<CountFigures> = fc.record(
      {
        count: fc.nat(),
        groups: fc.array(bucket, { maxLength: 3 }),
        other_count: fc.nat(),
        new_count: fc.nat(),
        new_cost_millicents: fc.nat(),
        histogram: fc.array(fc.record({ start: fc.string(), count: fc.nat() }), { maxLength: 3 }),
      },
      { requiredKeys: ['count'] },
    );
    const request = parse({ job_family: 'data' });
    fc.assert(
      fc.property(figures, fc.string(), (f, id) => {
        const { body, etag } = countEnvelope(request, f, id);
        expect(countJson(body)).toBe(JSON.stringify(body));
        expect(etag).toBe(representationTag(body));
      }),
    );
  });

  it('serializes a body it did not build as JSON.stringify does', () => {
    const body = { count: 3, meta: { request_id: 'x', applied_filters: {} } };
    expect(countJson(body)).toBe(JSON.stringify(body));
  });
});
