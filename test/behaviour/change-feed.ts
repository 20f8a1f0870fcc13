import { randomUUID } from 'node:crypto';
import { ChangesEnvelope } from '../../src/domain/changes-envelope';
import type { Opportunity } from '../../src/domain/record';
import { makeRecord } from '../support/fixtures';
import type { StartWorld, World } from '../support/worlds';
import type { AccountInput } from '../../src/store/account-repo';
import { ROOMY } from '../support/factories';

// contract §12: order of indexing, latest state once, tombstones, a cursor to poll
// from, metering like list, 402 all or nothing. One database for this file; the scenario builds up.

type Item = Partial<Opportunity> & { id: string; deleted?: boolean; changed_at?: string };
interface FeedBody {
  data?: Item[];
  pagination?: { returned: number; next_cursor: string | null; has_more: boolean; limit: number };
  meta?: { request_id: string; applied_filters: Record<string, unknown> };
  error?: { code: string; details?: { parameter: string; reason: string } };
}

/** The change feed, built up scenario by scenario, in one world. */
export function changeFeedBehaviour(start: StartWorld): void {
  let world: World;
  let key: string;
  beforeAll(async () => {
    world = await start([]);
    key = (await keyFor({ plan: 'growth' })).key;
  });
  afterAll(() => world.close());

  async function keyFor(input: AccountInput) {
    const { accountId, key } = await world.account({ ...ROOMY, ...input });
    return { account: { id: accountId }, key };
  }

  async function feed(query: string, apiKey = key, headers: Record<string, string> = {}) {
    const res = await fetch(`${world.baseUrl}/v1/opportunities/changes${query}`, {
      headers: { 'X-API-Key': apiKey, ...headers },
    });
    return { status: res.status, body: (await res.json()) as FeedBody, h: res.headers };
  }

  const cursorOf = (body: FeedBody) => encodeURIComponent(body.pagination?.next_cursor ?? '');
  const ids = (body: FeedBody) => (body.data ?? []).map((i) => i.id);

  /** Reads the whole feed from a query, page by page; returns the items and the last cursor. */
  async function drain(query: string, limit = 2) {
    const items: Item[] = [];
    let res = await feed(`${query}${query ? '&' : '?'}limit=${limit}`);
    for (;;) {
      expect(res.status).toBe(200);
      items.push(...(res.body.data ?? []));
      expect(res.body.pagination?.next_cursor).toEqual(expect.any(String));
      if (!res.body.pagination?.has_more) return { items, cursor: cursorOf(res.body) };
      res = await feed(`?cursor=${cursorOf(res.body)}&limit=${limit}`);
    }
  }

  const at = (day: number) => `2026-09-${String(day).padStart(2, '0')}T10:00:00.000Z`;
  const a = makeRecord({ title: 'A v1', changed_at: at(1) });
  const b = makeRecord({ title: 'B', changed_at: at(2) });
  const c = makeRecord({ title: 'C', changed_at: at(3) });
  const d = makeRecord({ title: 'D', changed_at: at(4) });

  describe('the feed of one store', () => {
    beforeAll(async () => {
      // One import each, so the indexing order is a, b, c, d; then a changes and c is removed.
      for (const r of [a, b, c, d]) await world.put([r]);
      await world.put([{ ...a, title: 'A v2', changed_at: at(5) }]);
      const removed = await world.remove([c.id]);
      expect(removed).toMatchObject({ ok: true, deleted: [c.id], unknown: [] });
    });

    it('lists changes in indexing order, each record once at its latest state, then tombstones', async () => {
      const before = Date.now();
      const { items } = await drain('');
      expect(items.map((i) => i.id)).toEqual([b.id, d.id, a.id, c.id]);
      expect(items[2]).toEqual({ ...a, title: 'A v2', changed_at: at(5) });
      expect(items[0]).toEqual(b);
      const tombstone = items[3];
      expect(Object.keys(tombstone ?? {}).sort()).toEqual(['changed_at', 'deleted', 'id']);
      expect(tombstone).toMatchObject({ id: c.id, deleted: true });
      // The tombstone's changed_at is the deletion time, not the record's last change.
      expect(Date.parse(tombstone?.changed_at ?? '')).toBeLessThanOrEqual(before);
      expect(Date.parse(tombstone?.changed_at ?? '')).toBeGreaterThan(Date.parse(at(30)));
    });

    it('since keeps changes at or after it (inclusive), tombstones by their deletion time', async () => {
      const res = await feed(`?since=${encodeURIComponent(at(4))}`);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([d.id, a.id, c.id]);
      // The documented schema (OpenAPI ChangesEnvelope) holds for records and tombstones alike.
      expect(ChangesEnvelope.safeParse(res.body).success).toBe(true);
      expect(res.body.meta?.applied_filters).toEqual({ since: at(4) });
      expect(res.body.pagination).toMatchObject({ returned: 3, has_more: false, limit: 25 });
      const day = await feed('?since=2026-09-05');
      expect(ids(day.body)).toEqual([a.id, c.id]);
    });

    it('the cursor is never null: polling from it picks up later changes, and carries since', async () => {
      const bounded = await feed(`?since=${encodeURIComponent(at(4))}`);
      const quiet = await feed(`?cursor=${cursorOf(bounded.body)}`);
      expect(quiet.status).toBe(200);
      expect(quiet.body.data).toEqual([]);
      expect(quiet.body.pagination).toMatchObject({ returned: 0, has_more: false });
      expect(quiet.body.pagination?.next_cursor).toEqual(expect.any(String));
      expect(quiet.body.meta?.applied_filters).toEqual({ since: at(4) });

      const e = makeRecord({ title: 'E', changed_at: at(6) });
      const old = makeRecord({ title: 'old', changed_at: at(1) });
      await world.put([e]);
      await world.put([old]);
      await world.put([{ ...b, title: 'B v2', changed_at: at(7) }]);
      // The same since beside the cursor is accepted. since bounds what the feed held when it was
      // opened: a change after that comes whatever its own changed_at, the old record's too.
      const later = await feed(
        `?cursor=${cursorOf(quiet.body)}&since=${encodeURIComponent(at(4))}&limit=1`,
      );
      expect(ids(later.body)).toEqual([e.id]);
      expect(later.body.pagination?.has_more).toBe(true);
      const rest = await feed(`?cursor=${cursorOf(later.body)}`);
      expect(ids(rest.body)).toEqual([old.id, b.id]);
      expect(rest.body.data?.[1]?.title).toBe('B v2');
      expect(rest.body.pagination?.has_more).toBe(false);
      // A feed opened now still leaves the old record out: it was there, before since.
      expect(ids((await feed(`?since=${encodeURIComponent(at(4))}`)).body)).not.toContain(old.id);
    });

    it('a record deleted and then restored with its old changed_at reaches a feed polling with since', async () => {
      const back = makeRecord({ title: 'Back', changed_at: at(2) });
      await world.put([back]);
      const opened = await drain(`?since=${encodeURIComponent(at(3))}`);
      expect(opened.items.map((i) => i.id)).not.toContain(back.id);
      expect(await world.remove([back.id])).toMatchObject({ deleted: [back.id] });
      const gone = await feed(`?cursor=${opened.cursor}`);
      expect(gone.body.data).toEqual([expect.objectContaining({ id: back.id, deleted: true })]);
      await world.put([back]);
      const restored = await feed(`?cursor=${cursorOf(gone.body)}`);
      expect(restored.body.data).toEqual([back]);
    });

    it('refuses a bad since, a since other than the cursor’s, a list cursor and unknown names', async () => {
      const bad = await feed('?since=yesterday');
      expect(bad.status).toBe(422);
      expect(bad.body.error).toMatchObject({
        code: 'validation_error',
        details: { parameter: 'since', reason: 'bad_format' },
      });
      const first = await feed(`?since=${encodeURIComponent(at(4))}`);
      const other = await feed(`?cursor=${cursorOf(first.body)}&since=2026-09-01`);
      expect(other.status).toBe(400);
      expect(other.body.error?.code).toBe('malformed_cursor');
      const fromStart = await feed('?limit=1');
      expect((await feed(`?cursor=${cursorOf(fromStart.body)}&since=2026-09-01`)).status).toBe(400);

      const list = await fetch(`${world.baseUrl}/v1/opportunities?limit=1`, {
        headers: { 'X-API-Key': key },
      });
      const listCursor = ((await list.json()) as FeedBody).pagination?.next_cursor ?? '';
      const mixed = await feed(`?cursor=${encodeURIComponent(listCursor)}`);
      expect(mixed.body.error?.code).toBe('malformed_cursor');
      const back = await fetch(`${world.baseUrl}/v1/opportunities?cursor=${cursorOf(first.body)}`, {
        headers: { 'X-API-Key': key },
      });
      expect(back.status).toBe(400);

      const other2 = await keyFor({ plan: 'growth' });
      expect((await feed(`?cursor=${cursorOf(first.body)}`, other2.key)).status).toBe(400);

      expect((await feed('?level=senior')).body.error).toMatchObject({
        code: 'invalid_filter',
        details: { parameter: 'level', reason: 'unknown_parameter' },
      });
      expect((await feed('?since=2026-09-01&since=2026-09-02')).body.error?.details).toEqual({
        parameter: 'since',
        reason: 'repeated',
      });
      expect((await feed('?limit=0')).status).toBe(422);
      expect((await feed('?limit=101')).body.error?.code).toBe('page_size_exceeded');
      expect((await feed('?cursor=')).body.error?.code).toBe('malformed_cursor');
      const anonymous = await fetch(`${world.baseUrl}/v1/opportunities/changes`);
      expect(anonymous.status).toBe(401);
    });

    it('applies the account page size', async () => {
      const small = await keyFor({ plan: 'growth', page_size_override: 2 });
      expect((await feed('?limit=3', small.key)).body.error?.code).toBe('page_size_exceeded');
      expect((await feed('', small.key)).body.pagination?.limit).toBe(2);
    });
  });

  describe('metering', () => {
    const usage = (h: Headers) => ({
      new: h.get('x-service-new-opportunity-count'),
      used: h.get('x-service-opportunity-used'),
      charge: h.get('x-service-usage-charge-millicents'),
      balance: h.get('x-service-balance-millicents'),
    });

    it('new records consume, repeats and tombstones are free, the call spends its request id', async () => {
      const { key: k } = await keyFor({ plan: 'growth' });
      const first = await feed('?limit=3', k);
      const records = (first.body.data ?? []).filter((i) => !i.deleted).length;
      expect(usage(first.h)).toMatchObject({ new: String(records), used: String(records) });
      const again = await feed('?limit=3', k);
      expect(usage(again.h)).toMatchObject({ new: '0', used: String(records) });

      const all = await feed('?limit=100', k);
      const allRecords = (all.body.data ?? []).filter((i) => !i.deleted);
      expect(all.body.data?.some((i) => i.deleted)).toBe(true);
      expect(usage(all.h)).toMatchObject({ used: String(allRecords.length) });

      const id = `feed-${randomUUID()}`;
      expect((await feed('?limit=1', k, { 'X-Request-ID': id })).status).toBe(200);
      const reused = await feed('?limit=1', k, { 'X-Request-ID': id });
      expect(reused.status).toBe(409);
      expect(reused.body.error?.code).toBe('duplicate_request_id');
    });

    it('402 is all or nothing: nothing recorded or charged', async () => {
      const { account, key: k } = await keyFor({
        plan: 'builder',
        allowance_override: 1,
        balance_millicents: 400,
      });
      // The feed now starts d, a, the tombstone of c, e: three records, one tombstone.
      const refused = await feed('?limit=4', k);
      expect(refused.status).toBe(402);
      expect(refused.body.error?.code).toBe('insufficient_balance');
      expect(refused.body.data).toBeUndefined();
      expect(usage(refused.h)).toMatchObject({ used: '0', balance: '400' });
      expect(await world.delivered(account.id)).toBe(0);
      // Two records and a free tombstone fit exactly: one included, one from the wallet.
      const fits = await feed('?limit=3', k);
      expect(fits.status).toBe(200);
      expect(fits.body.data?.map((i) => i.deleted === true)).toEqual([false, false, true]);
      expect(usage(fits.h)).toMatchObject({ new: '2', charge: '400', balance: '0' });
    });
  });
}
