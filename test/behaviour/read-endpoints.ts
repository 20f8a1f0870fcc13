import { FIXTURE, expected, qs } from '../support/read-fixture';
import { get, type Json } from '../support/read-http';
import { useWorld, type StartFixtureWorld } from '../support/worlds';

// Envelopes (contract §4), the public record (§2.1), applied_filters normalization
// (§6.13), count semantics (§10.1, §16.2) and detail (§5.5) over HTTP.

/** Envelopes, the public record, applied_filters, count and detail, in one world. */
export function readEndpointBehaviour(start: StartFixtureWorld): void {
  const world = useWorld(start);

  const PUBLIC_FIELDS = [
  'id', 'title', 'normalized_title', 'employer', 'intermediary', 'organizations', 'canonical_url',
  'application_url', 'sources', 'published_at', 'published_precision', 'first_seen', 'changed_at',
  'last_verified_live_at', 'liveness_status', 'technology_classification', 'job_domain',
  'job_family', 'job_subfamily', 'job_class', 'level', 'management_track', 'specializations',
  'engagement_models', 'commercial_eligibility', 'actionability', 'location', 'rate', 'is_low_pay',
  'pay_basis', 'work_structure', 'duration', 'evidence',
].sort(); // prettier-ignore

  const keys = (o: object) => Object.keys(o).sort();

  /** contract §2.1, §2.4: exactly the contract's fields plus evidence, nested objects as documented. */
  function expectPublicRecord(r: Record<string, unknown>) {
    expect(keys(r)).toEqual(PUBLIC_FIELDS);
    const loc = r.location as object;
    expect(keys(loc)).toEqual(
      ['city', 'country', 'region', 'region_code', 'remote', 'remote_scope', 'text'].sort(),
    );
    for (const s of r.sources as object[]) {
      expect(keys(s)).toEqual(['external_id', 'observed_at', 'source', 'url']);
    }
    for (const o of r.organizations as object[]) expect(keys(o)).toEqual(['name', 'role']);
    if (r.rate !== null) expect(keys(r.rate as object)).toEqual(['currency', 'max', 'min', 'unit']);
    if (r.duration !== null) {
      expect(keys(r.duration as object)).toEqual(['months_max', 'months_min', 'text']);
    }
    for (const e of r.evidence as object[]) {
      expect(keys(e)).toEqual(['excerpt', 'field', 'source', 'strength', 'value']);
    }
  }

  const usage = (res: Json) => ({
    used: res.headers.get('x-service-opportunity-used'),
    fresh: res.headers.get('x-service-new-opportunity-count'),
  });

  describe('list envelope', () => {
    it('is { data, pagination: { returned, next_cursor, has_more, limit }, meta }', async () => {
      const res = await get(world.baseUrl, '/v1/opportunities?limit=2', { key: world.reader.key });
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(['data', 'meta', 'pagination']);
      expect(keys(res.body.pagination)).toEqual(['has_more', 'limit', 'next_cursor', 'returned']);
      expect(res.body.meta).toEqual({
        request_id: res.headers.get('x-request-id'),
        applied_filters: {},
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
      for (const r of res.body.data) expectPublicRecord(r);
    });

    it('an empty result is a 200 with an empty page', async () => {
      const res = await get(world.baseUrl, '/v1/opportunities?normalized_title=nobody', {
        key: world.reader.key,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toEqual({
        returned: 0,
        next_cursor: null,
        has_more: false,
        limit: 25,
      });
    });
  });

  describe('meta.applied_filters', () => {
    const query = {
      level: 'senior,staff',
      published_after: '2026-09-15',
      fresh_after: '2026-09-15T02:00:00+02:00',
      changed_since: '2026-09-01T00:00:00.5Z',
      rate_min: '80.5',
      rate_max: '100',
      remote: 'false',
      country: 'us',
      job_family: 'data',
      job_subfamily: 'data_engineering',
      engagement_model: 'c2c',
      pay_basis: 'hourly',
      city: 'Austin',
    };
    const normalized = {
      level: ['senior', 'staff'],
      published_after: '2026-09-15T00:00:00.000Z',
      fresh_after: '2026-09-15T00:00:00.000Z',
      changed_since: '2026-09-01T00:00:00.500Z',
      rate_min: 80.5,
      rate_max: 100,
      remote: false,
      country: 'US',
      job_family: ['data'],
      job_subfamily: ['data_engineering'],
      engagement_model: 'c2c',
      pay_basis: ['hourly'],
      city: 'Austin',
    };

    it.each([['/v1/opportunities'], ['/v1/opportunities/count']])(
      '%s: lists as arrays, dates ISO UTC, numbers, booleans',
      async (path) => {
        const res = await get(world.baseUrl, `${path}?${qs(query)}`, { key: world.reader.key });
        expect(res.status).toBe(200);
        expect(res.body.meta.applied_filters).toEqual(normalized);
      },
    );

    it('remote=true is the boolean true', async () => {
      const res = await get(world.baseUrl, '/v1/opportunities/count?remote=true', {
        key: world.reader.key,
      });
      expect(res.body.meta.applied_filters).toEqual({ remote: true });
    });
  });

  describe('count', () => {
    it('is { count, meta: { request_id, applied_filters } } with the same filters as the list', async () => {
      const res = await get(
        world.baseUrl,
        '/v1/opportunities/count?level=senior,staff&country=US',
        {
          key: world.reader.key,
          headers: { 'X-Request-ID': 'count-envelope' },
        },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: expected({ level: 'senior,staff', country: 'US' }).length,
        meta: {
          request_id: 'count-envelope',
          applied_filters: { level: ['senior', 'staff'], country: 'US' },
        },
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    });

    it('consumes nothing and spends no request id', async () => {
      const fresh = await world.newReader();
      const c1 = await get(world.baseUrl, '/v1/opportunities/count', {
        key: fresh.key,
        headers: { 'X-Request-ID': 'same-id' },
      });
      expect(c1.body.count).toBe(FIXTURE.length);
      expect(usage(c1)).toEqual({ used: '0', fresh: '0' });
      const c2 = await get(world.baseUrl, '/v1/opportunities/count', {
        key: fresh.key,
        headers: { 'X-Request-ID': 'same-id' },
      });
      expect(c2.status).toBe(200);
      expect(usage(c2)).toEqual({ used: '0', fresh: '0' });
      // The id was not spent by the counts, so a list may still use it.
      const page = await get(world.baseUrl, '/v1/opportunities?limit=5', {
        key: fresh.key,
        headers: { 'X-Request-ID': 'same-id' },
      });
      expect(page.status).toBe(200);
      expect(usage(page)).toEqual({ used: '5', fresh: '5' });
      const c3 = await get(world.baseUrl, '/v1/opportunities/count', { key: fresh.key });
      expect(usage(c3)).toEqual({ used: '5', fresh: '0' });
      expect(c3.headers.get('x-service-usage-charge-millicents')).toBe('0');
    });
  });

  // contract §5.6, §5.7: the taxonomy and usage take no parameters; one is an unknown one.
  describe('endpoints without parameters', () => {
    it.each([
      ['/v1/usage?foo=1', 'foo'],
      ['/v1/taxonomy/occupations?version=v2', 'version'],
      ['/v1/openapi.json?api_key=oppk_x', 'api_key'],
    ])('%s is 400 invalid_filter naming the parameter', async (path, name) => {
      const res = await get(world.baseUrl, path, { key: world.reader.key });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_filter',
        details: { parameter: name, reason: 'unknown_parameter' },
      });
    });

    it('GET /v1/usage?x=1 still counts against the rate limit and carries its headers', async () => {
      const res = await get(world.baseUrl, '/v1/usage?x=1', { key: world.reader.key });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
      expect(res.headers.get('x-service-opportunity-used')).not.toBeNull();
    });
  });

  describe('detail', () => {
    it('is { data: record, meta: { request_id } }, the record exactly as stored', async () => {
      const record = FIXTURE[0];
      const res = await get(world.baseUrl, `/v1/opportunities/${record?.id}`, {
        key: world.reader.key,
      });
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(['data', 'meta']);
      expect(res.body.meta).toEqual({ request_id: res.headers.get('x-request-id') });
      expect(res.body.data).toEqual(record);
      expectPublicRecord(res.body.data);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('returns dead, blocked and unknown records too (the field says so)', async () => {
      for (const status of ['dead', 'blocked', 'unknown'] as const) {
        const record = FIXTURE.find((r) => r.liveness_status === status);
        const res = await get(world.baseUrl, `/v1/opportunities/${record?.id}`, {
          key: world.reader.key,
        });
        expect(res.status).toBe(200);
        expect(res.body.data.liveness_status).toBe(status);
      }
    });

    it('accepts the uuid in upper case', async () => {
      const record = FIXTURE[1];
      const res = await get(world.baseUrl, `/v1/opportunities/${record?.id.toUpperCase()}`, {
        key: world.reader.key,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(record?.id);
    });

    it('charges a record once per period: new count 1, then 0', async () => {
      const fresh = await world.newReader();
      const path = `/v1/opportunities/${FIXTURE[2]?.id}`;
      expect(usage(await get(world.baseUrl, path, { key: fresh.key }))).toEqual({
        used: '1',
        fresh: '1',
      });
      expect(usage(await get(world.baseUrl, path, { key: fresh.key }))).toEqual({
        used: '1',
        fresh: '0',
      });
    });

    // contract §6.3, §6.14: the detail takes `fields` only; anything else is named, never ignored.
    it.each(['api_key', 'feilds', 'level'])(
      'an unknown parameter (%s) is 400 invalid_filter naming it, and delivers nothing',
      async (name) => {
        const fresh = await world.newReader();
        const path = `/v1/opportunities/${FIXTURE[3]?.id}?${name}=${encodeURIComponent(fresh.key)}`;
        const res = await get(world.baseUrl, path, { key: fresh.key });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({
          code: 'invalid_filter',
          details: { parameter: name, reason: 'unknown_parameter' },
        });
        expect(JSON.stringify(res.body)).not.toContain(fresh.key);
        expect(usage(res)).toEqual({ used: '0', fresh: '0' });
      },
    );

    it('a removed record is 404 opportunity_not_found', async () => {
      const gone = FIXTURE[FIXTURE.length - 1];
      await world.remove([gone?.id ?? '']);
      const res = await get(world.baseUrl, `/v1/opportunities/${gone?.id}`, {
        key: world.reader.key,
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('opportunity_not_found');
      const count = await get(world.baseUrl, '/v1/opportunities/count', { key: world.reader.key });
      expect(count.body.count).toBe(FIXTURE.length - 1);
    });
  });
}
