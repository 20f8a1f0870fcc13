import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Opportunity } from '../../src/domain/record';

// HTTP helpers shared by the read-surface tests (list, count, detail, preview, errors).

// The read suites' reader comes from the suite's factories.
export { newReader, type Reader } from './factories';

export interface Json {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are probed freely
  body: any;
  text: string;
}

/** GET baseUrl+path with optional key and headers; parses the JSON body when there is one. */
export async function get(
  baseUrl: string,
  path: string,
  options: { key?: string; headers?: Record<string, string> } = {},
): Promise<Json> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['X-API-Key'] = options.key;
  const res = await fetch(baseUrl + path, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
}

export interface ListPage {
  data: Opportunity[];
  pagination: { returned: number; next_cursor: string | null; has_more: boolean; limit: number };
  meta: { request_id: string; applied_filters: Record<string, unknown> };
}

/**
 * Follows next_cursor from the first page to the last, checking every page's pagination block
 * (returned, has_more === (next_cursor !== null), the limit) on the way. Returns all records and
 * the pages.
 */
export async function listAll(
  baseUrl: string,
  key: string,
  query: string,
  limit = 100,
): Promise<{ records: Opportunity[]; pages: ListPage[] }> {
  const records: Opportunity[] = [];
  const pages: ListPage[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const cursorPart: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await get(baseUrl, `/v1/opportunities?${query}${sep}limit=${limit}${cursorPart}`, {
      key,
    });
    if (res.status !== 200) {
      throw new Error(`GET ?${query} -> ${res.status} ${res.text}`);
    }
    const page = res.body as ListPage;
    expect(page.pagination.returned).toBe(page.data.length);
    expect(page.pagination.limit).toBe(limit);
    expect(page.pagination.has_more).toBe(page.pagination.next_cursor !== null);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    if (page.pagination.has_more) expect(page.data.length).toBe(limit);
    pages.push(page);
    records.push(...page.data);
    cursor = page.pagination.next_cursor;
    if (pages.length > 200) throw new Error('listAll: too many pages');
  } while (cursor !== null);
  return { records, pages };
}

/** Listens on an ephemeral loopback port; returns the base URL and a close function. */
export async function serve(app: Express): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ERROR_KEYS = ['code', 'message', 'request_id', 'details'];

/**
 * Checks the error envelope of contract §4.7 exactly: `{ error: { code, message, request_id,
 * details? } }`, request_id equal to the X-Request-ID header, and for 400/422 details naming the
 * parameter (and the reason, when given).
 */
export function expectError(
  res: Json,
  status: number,
  code: string,
  details?: { parameter: string; reason?: string | RegExp },
): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error as Record<string, unknown>;
  for (const k of Object.keys(error)) expect(ERROR_KEYS).toContain(k);
  expect(typeof error.message).toBe('string');
  expect(String(error.message).length).toBeGreaterThan(0);
  expect(error.request_id).toBe(res.headers.get('x-request-id'));
  if (status === 400 || status === 422) {
    const d = error.details as { parameter: string; reason: string } | undefined;
    expect(d).toBeDefined();
    expect(Object.keys(d ?? {}).sort()).toEqual(['parameter', 'reason']);
    expect(typeof d?.reason).toBe('string');
    if (details) {
      expect(d?.parameter).toBe(details.parameter);
      if (details.reason instanceof RegExp) expect(d?.reason).toMatch(details.reason);
      else if (details.reason) expect(d?.reason).toBe(details.reason);
    }
  }
}

/**
 * A response's text with every uuid (record and request ids: random, and public) replaced, for
 * checking that a redacted value appears nowhere: a short external id such as the fixtures' '123'
 * turns up inside a random uuid by chance.
 */
export function outsideUuids(text: string): string {
  return text.replace(/[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}/gi, '<uuid>');
}
