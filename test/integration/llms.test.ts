import { request } from 'node:http';
import { createTools } from '../../src/mcp/tools';
import { createTestContext, type TestContext } from '../support/harness';

// decisions 11: GET /llms.txt, a plain-text guide for agents, no key. It must stay accurate: every
// documented /v1 path and every MCP tool is named in it.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const fetchText = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${ctx.baseUrl}/llms.txt`, { headers });
  return { res, text: await res.text() };
};

it('is plain text served without a key, with absolute URLs of this instance', async () => {
  const { res, text } = await fetchText();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(text.startsWith('# ')).toBe(true);
  expect(text).toContain(`MCP`);
  expect(text).toContain(`URL: ${ctx.baseUrl}/mcp`);
  expect(text).toContain(`${ctx.baseUrl}/v1/opportunities`);
  expect(text).toMatch(/Repeats .* are free/);
  expect(text).toMatch(/untrusted/);
});

it('names every documented /v1 path and every MCP tool', async () => {
  const { text } = await fetchText();
  const doc = (await (await fetch(`${ctx.baseUrl}/v1/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
  };
  const paths = Object.keys(doc.paths).map((p) => p.replace(/\{[^}]+\}/g, '{id}'));
  expect(paths.length).toBeGreaterThan(0);
  for (const path of paths)
    expect({ path, named: text.includes(path) }).toEqual({ path, named: true });
  const tools = createTools(ctx.deps, {} as never).map((t) => t.name);
  for (const tool of tools)
    expect({ tool, named: text.includes(tool) }).toEqual({ tool, named: true });
});

it('does not echo a Host header that is not a host name', async () => {
  const url = new URL(`${ctx.baseUrl}/llms.txt`);
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { Host: 'x<script>' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.end();
  });
  expect(text).not.toContain('<script>');
  expect(text).toContain('http://localhost/mcp');
});
