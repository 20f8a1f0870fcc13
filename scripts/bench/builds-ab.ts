// Two builds of the API side by side, the same workloads alternated between them in rounds: the
// API's CPU per request of each (utime + stime from /proc over a fixed number of requests), as
// medians. On a machine shared with other work, `npm run bench`'s API CPU per request moves by
// ±40 % from one run to the next (docs/benchmarks.md); alternating two builds round by round puts
// both under the same conditions, so a before/after pair compares like with like.
//   git checkout BEFORE -- src && npm run build && mv dist dist-before && git checkout HEAD -- src
//   npm run build
//   DATABASE_URL=… OPENSEARCH_URL=… npx tsx scripts/bench/builds-ab.ts \
//     [--rounds 3] [--requests 2000] [--connections 16]
//     [--only list,mcp2025,mcp2026,mcpfields,count,mcpcount]
//   rm -rf dist-before
// (dist-before sits at the root, as dist does: the build finds migrations and mappings from there.)
// The database is seeded as `npm run bench` seeds it (run that first once).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { shutdown } from '../../src/bootstrap';
import { AGENT_FIELDS } from '../../src/domain/record-tokens';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { probeDeps } from './probe-deps';
import { cpuMs } from './proc';
import { freePort } from './server';

const ROOT = path.resolve(__dirname, '../..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
};
const ROUNDS = Number(arg('rounds', '3'));
const REQUESTS = Number(arg('requests', '2000'));
const CONNECTIONS = Number(arg('connections', '16'));
const ONLY = arg('only', '').split(',').filter(Boolean);
const BUILDS = ['dist-before/main.js', 'dist/main.js'];

interface Req {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function startBuild(entry: string, env: Record<string, string>) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { entry, url, pid: child.pid ?? 0, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error(`${entry} did not become ready`);
}

/** The 50 filter mixes of `npm run bench` (family x country x remote), as query parameters. */
function mixes(families: string[]): Record<string, string>[] {
  const countries = ['US', undefined, 'GB', 'IN', 'CA'];
  return Array.from({ length: 50 }, (_, i) => {
    const mix: Record<string, string> = { job_family: families[i % families.length] as string };
    const country = countries[Math.floor(i / 10) % countries.length];
    if (country) mix.country = country;
    if (Math.floor(i / 5) % 2 === 0) mix.remote = 'true';
    return mix;
  });
}

function workloads(key: string, families: string[]): Record<string, Req[]> {
  const rest = { 'X-API-Key': key };
  const mcp = {
    ...rest,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  const modernMeta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'builds-ab', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const args = (m: Record<string, string>) => ({
    ...m,
    job_family: [m.job_family],
    ...(m.remote ? { remote: true } : {}),
  });
  const call = (name: string, a: object, modern = false): Req => ({
    method: 'POST',
    path: '/mcp',
    headers: modern
      ? {
          ...mcp,
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': name,
        }
      : mcp,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: a, ...(modern ? { _meta: modernMeta } : {}) },
    }),
  });
  const all = mixes(families);
  return {
    list: all.map((m) => ({
      method: 'GET',
      path: `/v1/opportunities?${new URLSearchParams(m)}&limit=25`,
      headers: rest,
    })),
    mcp2025: all.map((m) => call('search_opportunities', { ...args(m), limit: 25 })),
    mcp2026: all.map((m) => call('search_opportunities', { ...args(m), limit: 25 }, true)),
    // The fields docs/agents.md and /llms.txt recommend (AGENT_FIELDS; `id` comes anyway).
    mcpfields: all.map((m) =>
      call('search_opportunities', {
        ...args(m),
        limit: 25,
        fields: AGENT_FIELDS.filter((f) => f !== 'id'),
      }),
    ),
    count: all.map((m) => ({
      method: 'GET',
      path: `/v1/opportunities/count?${new URLSearchParams(m)}`,
      headers: rest,
    })),
    mcpcount: all.map((m) => call('count_opportunities', args(m))),
  };
}

async function main(): Promise<void> {
  const env = {
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    OPENSEARCH_URL: process.env.OPENSEARCH_URL ?? '',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    CURSOR_SIGNING_KEYS: `ab=${randomBytes(24).toString('base64url')}`,
    OPENSEARCH_TIMEOUT_MS: '30000',
  };
  const deps = await probeDeps(env);
  const account = await createAccount(deps.pool, {
    plan: 'enterprise',
    name: 'builds-ab',
    allowance_override: 1_000_000_000,
    rps_override: 1_000_000,
    balance_millicents: 1_000_000_000_000,
  });
  const { key } = await createApiKey(deps.pool, { accountId: account.id, label: 'builds-ab' });
  const { rows } = await deps.pool.query<{ f: string }>(
    `SELECT job_family AS f FROM opportunities WHERE deleted_at IS NULL AND job_family IS NOT NULL
      GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 10`,
  );
  await shutdown(deps);
  const all = workloads(
    key,
    rows.map((r) => r.f),
  );
  const names = Object.keys(all).filter((w) => ONLY.length === 0 || ONLY.includes(w));
  const builds = [];
  for (const entry of BUILDS) builds.push(await startBuild(entry, env));
  const run = (url: string, requests: Req[], amount: number) =>
    autocannon({ url, connections: CONNECTIONS, amount, requests: requests as never });
  try {
    for (const b of builds) for (const w of names) await run(b.url, all[w] as Req[], 500);
    const perRequest = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const w of names) {
        for (const b of round % 2 ? [...builds].reverse() : builds) {
          const before = cpuMs(b.pid);
          const result = await run(b.url, all[w] as Req[], REQUESTS);
          const ms = (cpuMs(b.pid) - before) / REQUESTS;
          const label = `${w} ${b.entry}`;
          perRequest.set(label, [...(perRequest.get(label) ?? []), ms]);
          const bytes = result.throughput.total / Math.max(1, result.requests.total);
          console.log(
            `round ${round} ${label}: ${ms.toFixed(3)} ms/req, ${bytes.toFixed(0)} B/reply, ` +
              `${result.errors + result.non2xx} errors`,
          );
        }
      }
    }
    console.log('\n| workload | build | API CPU ms/req (median) | each round |\n|---|---|---|---|');
    for (const [label, values] of perRequest) {
      const sorted = [...values].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
      const [w, entry] = label.split(' ');
      console.log(
        `| ${w} | ${entry} | ${median.toFixed(2)} | ${values.map((v) => v.toFixed(2)).join(' ')} |`,
      );
    }
  } finally {
    for (const b of builds) b.child.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
