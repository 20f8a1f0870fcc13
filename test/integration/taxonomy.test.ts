import taxonomyJson from '../../src/domain/taxonomy/occupations.v1.json';
import { createTestContext, type TestContext } from '../support/harness';
import { get } from '../support/read-http';

// GET /v1/taxonomy/occupations (contract §4.4, §5.6): no key, { version, root, nodes }
// with the root among the nodes, a consistent hierarchy, ETag and Cache-Control, 304 on a match.

interface Node {
  id: string;
  parent_id: string | null;
  level: string;
  label: string;
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const PATH = '/v1/taxonomy/occupations';
const LEVELS = ['root', 'domain', 'family', 'subfamily', 'class'];

describe('GET /v1/taxonomy/occupations', () => {
  it('needs no key and is { version, root, nodes }', async () => {
    const res = await get(ctx.baseUrl, PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['nodes', 'root', 'version']);
    expect(res.body.version).toBe(taxonomyJson.version);
    for (const node of res.body.nodes as Node[]) {
      expect(Object.keys(node).sort()).toEqual(['id', 'label', 'level', 'parent_id']);
    }
  });

  it('is the v1 taxonomy, node for node', async () => {
    const { body } = await get(ctx.baseUrl, PATH);
    const byId = (nodes: Node[]) => [...nodes].sort((a, b) => (a.id < b.id ? -1 : 1));
    const v1 = (taxonomyJson.nodes as Node[]).map(({ id, parent_id, level, label }) => ({
      id,
      parent_id,
      level,
      label,
    }));
    expect(byId(body.nodes)).toEqual(byId(v1));
  });

  it('has its root among the nodes (level root, parent_id null) and a consistent hierarchy', async () => {
    const { body } = await get(ctx.baseUrl, PATH);
    const nodes = body.nodes as Node[];
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(byId.size).toBe(nodes.length); // ids are unique
    const roots = nodes.filter((n) => n.level === 'root');
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ id: body.root, parent_id: null });
    for (const node of nodes) {
      expect(LEVELS).toContain(node.level);
      expect(node.id).toMatch(/^[a-z0-9_]+$/);
      expect(node.label.length).toBeGreaterThan(0);
      if (node.level === 'root') continue;
      const parent = byId.get(node.parent_id ?? '');
      expect(parent).toBeDefined(); // every parent exists
      // Each level hangs directly below the previous one.
      expect(LEVELS.indexOf(parent?.level ?? '')).toBe(LEVELS.indexOf(node.level) - 1);
    }
    for (const level of LEVELS) expect(nodes.some((n) => n.level === level)).toBe(true);
    // The ids the read tests rely on.
    for (const id of ['data', 'software_engineering', 'data_engineering', 'react_developer']) {
      expect(byId.has(id)).toBe(true);
    }
  });

  it('is cacheable: ETag and Cache-Control', async () => {
    const a = await get(ctx.baseUrl, PATH);
    const b = await get(ctx.baseUrl, PATH);
    const etag = a.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(b.headers.get('etag')).toBe(etag);
    const cacheControl = a.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/max-age=\d+/);
    expect(cacheControl).not.toMatch(/no-store/);
  });

  it('If-None-Match with the ETag → 304 with no body; another tag → 200', async () => {
    const etag = (await get(ctx.baseUrl, PATH)).headers.get('etag') ?? '';
    const hit = await get(ctx.baseUrl, PATH, { headers: { 'If-None-Match': etag } });
    expect(hit.status).toBe(304);
    expect(hit.text).toBe('');
    expect(hit.headers.get('etag')).toBe(etag);
    const list = await get(ctx.baseUrl, PATH, { headers: { 'If-None-Match': `"other", ${etag}` } });
    expect(list.status).toBe(304);
    const star = await get(ctx.baseUrl, PATH, { headers: { 'If-None-Match': '*' } });
    expect(star.status).toBe(304);
    const miss = await get(ctx.baseUrl, PATH, { headers: { 'If-None-Match': '"other"' } });
    expect(miss.status).toBe(200);
    expect(miss.body.root).toBeDefined();
  });

  // RFC 9110 13.1.2: If-None-Match uses the WEAK comparison, so W/"x" matches "x". Caches and
  // proxies that compress responses turn strong tags into weak ones, and clients send them back.
  it('If-None-Match with the weak form of the ETag → 304', async () => {
    const etag = (await get(ctx.baseUrl, PATH)).headers.get('etag') ?? '';
    const weak = etag.startsWith('W/') ? etag : `W/${etag}`;
    const res = await get(ctx.baseUrl, PATH, { headers: { 'If-None-Match': weak } });
    expect(res.status).toBe(304);
  });

  it('ignores an API key and needs none (no usage headers)', async () => {
    const res = await get(ctx.baseUrl, PATH, { key: `oppk_${'Z'.repeat(40)}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-opportunity-used')).toBeNull();
  });
});
