import { request } from 'node:http';
import { createTools } from '../../src/mcp/tools';
import { createTestContext, type TestContext } from '../support/harness';

// contract §5.8.3: GET /llms.txt, a plain-text guide for agents, no key. It must stay accurate: every
// documented /v1 path, query and header parameter, every MCP tool and tool argument is named in it.

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

it('names every query and header parameter of the documented paths and every MCP tool argument', async () => {
  const { text } = await fetchText();
  const doc = (await (await fetch(`${ctx.baseUrl}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  };
  const params = new Set<string>();
  for (const ops of Object.values(doc.paths))
    for (const op of Object.values(ops))
      for (const p of op.parameters ?? []) if (p.in !== 'path') params.add(p.name);
  expect([...params]).toEqual(expect.arrayContaining(['unseen_only', 'max_new', 'group_by']));
  for (const name of params)
    expect({ name, named: text.includes(name) }).toEqual({ name, named: true });
  const args = createTools(ctx.deps, {} as never).flatMap((t) =>
    Object.keys((t.inputSchema as { properties?: object }).properties ?? {}),
  );
  expect(args).toEqual(expect.arrayContaining(['include_new_count', 'unseen_only', 'max_new']));
  for (const arg of new Set(args))
    expect({ arg, named: text.includes(arg) }).toEqual({ arg, named: true });
  // include=new_count is the REST value; the cheap path names both surfaces.
  expect(text).toContain('include=new_count');
  expect(text).toMatch(/unseen_only=true&max_new=N/);
  expect(text).toContain('taxonomy://occupations');
});

it('does not echo a Host header that is not a host name', async () => {
  const url = new URL(`${ctx.baseUrl}/llms.txt`);
  const fetchWithHost = (host: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { Host: host } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  // One no host is named by is refused by the server itself (RFC 9112 §3.2, contract §20.4).
  const refused = await fetchWithHost('x<script>');
  expect(refused.status).toBe(400);
  expect(refused.text).not.toContain('<script>');
  // One the HTTP grammar allows but no plain host name is (sub-delims): served, never echoed.
  const odd = await fetchWithHost("x!$&'y");
  expect(odd.status).toBe(200);
  expect(odd.text).not.toContain("x!$&'y");
  expect(odd.text).toContain('http://localhost/mcp');
});
