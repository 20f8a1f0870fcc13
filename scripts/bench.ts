// `npm run bench` (docs/benchmarks.md): seeds when needed, starts the API as in production, and in
// one run drives it and the equivalent raw OpenSearch requests (and, for counts, the same filters as
// SQL on Postgres) with autocannon; prints throughput, latency, errors, ratios, CPU per request of
// each process and the API's peak RSS.
//   npm run bench -- [--records 1000000] [--seconds 8] [--connections 16] [--only list,count,q]
//                    [--cpu-prof DIR] [--processes N|auto]
// --processes (default: API_PROCESSES, else 1) starts the API with that many processes on its port
// (docs/operations.md); its CPU and RSS columns are then those of the primary and every process.
// BENCH_NODE_ARGS adds node flags to the API's, e.g. BENCH_NODE_ARGS=--trace-gc-nvp: each garbage
// collection's figures (promoted bytes among them) go to .cache/bench-api.log.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { shutdown } from '../src/bootstrap';
import { parseEnv } from '../src/config';
import { parseRestQuery } from '../src/domain/filters';
import { AGENT_FIELDS } from '../src/domain/record-tokens';
import { ensureLocalOpenSearch } from '../src/infra/local-opensearch';
import { buildCountBody, buildListSearchBody } from '../src/search/query-builder';
import type { AppDeps } from '../src/service/context';
import { createAccount } from '../src/store/account-repo';
import { createApiKey } from '../src/store/api-key-repo';
import { keywordMixes, type KeywordMix } from './bench/keyword-queries';
import { runLoad, type LoadResult, type Req } from './bench/load';
import { CpuMeter, pidListeningOn, pidsNamed, rssPeak } from './bench/proc';
import { startApi, type RunningApi } from './bench/server';
import { countBaseline, ensureBaselineIndex, sqlCount } from './bench/sql-baseline';
import { dashboardWorkloads, newestFreshness } from './bench/dashboards';
import { indexLine, loadLine, machineLine, postgresLine } from './bench/machine';
import { oneAccountWorkloads } from './bench/one-account';
import { largestFamilies, probeDeps } from './bench/probe-deps';

const ROOT = path.resolve(__dirname, '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
}

const RECORDS = Number(arg('records', '1000000'));
const SECONDS = Number(arg('seconds', '8'));
const CONNECTIONS = Number(arg('connections', '16'));
// Workloads are separated by a comma without a space (their names have ", " in them).
const ONLY = arg('only', '')
  .split(/,(?! )/)
  .filter(Boolean);
const CPU_PROF = arg('cpu-prof', '');
// Read as the API reads it (a bad value stops the bench naming it).
const PROCESSES = parseEnv({
  API_PROCESSES: arg('processes', process.env.API_PROCESSES ?? '1'),
}).API_PROCESSES;

interface Mix {
  query: string;
  list: object;
  count: object;
  sql: { where: string; params: unknown[] };
}

interface Row {
  workload: string;
  api: LoadResult;
  raw: LoadResult | null;
  rawLabel: string;
  cpu: { api: number; pg: number; redis: number; os: number; rawOs: number };
  sql?: LoadResult & { pgCpu: number };
}

function cli(env: Record<string, string>, ...args: string[]): { ok: boolean; out: string } {
  const res = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { ok: res.status === 0, out: res.stdout };
}

async function ensureSeeded(deps: AppDeps, env: Record<string, string>): Promise<number> {
  const stored = async () =>
    Number(
      (
        await deps.pool.query<{ n: string }>(
          'SELECT count(*) AS n FROM opportunities WHERE deleted_at IS NULL',
        )
      ).rows[0]?.n ?? 0,
    );
  const indexed = async () =>
    (await deps.search.count({ index: deps.alias, body: { query: { match_all: {} } } })).body.count;
  if ((await stored()) < RECORDS) {
    console.log(`seeding ${RECORDS} records (seed 42)...`);
    cli(env, 'seed', '--count', String(RECORDS), '--seed', '42');
  }
  if ((await indexed()) !== (await stored())) {
    console.log('index behind the store: sync...');
    if (!cli(env, 'sync').ok) throw new Error('sync failed');
  }
  return stored();
}

/** 50 realistic filter combinations: family x country x remote, as REST, OpenSearch and SQL. */
function buildMixes(deps: AppDeps, families: string[]): Mix[] {
  const countries = ['US', undefined, 'GB', 'IN', 'CA'];
  const mixes: Mix[] = [];
  for (let i = 0; i < 50; i++) {
    const family = families[i % families.length] as string;
    const country = countries[Math.floor(i / 10) % countries.length];
    const remote = Math.floor(i / 5) % 2 === 0 ? true : undefined;
    const query: Record<string, string> = { job_family: family };
    const where = ['deleted_at IS NULL', 'job_family = $1'];
    const params: unknown[] = [family];
    if (country) {
      query.country = country;
      params.push(country);
      where.push(`record->'location'->>'country' = $${params.length}`);
    }
    if (remote) {
      query.remote = 'true';
      where.push(`record->'location'->>'remote' = 'true'`);
    }
    const ctx = { taxonomy: deps.taxonomy, maxPageSize: 100 };
    const filter = parseRestQuery('count', query, ctx).filter;
    mixes.push({
      query: new URLSearchParams(query).toString(),
      list: buildListSearchBody(filter, deps.taxonomy, { size: 26 }),
      count: buildCountBody(filter, deps.taxonomy),
      sql: { where: where.join(' AND '), params },
    });
  }
  return mixes;
}

/** Per-connection cursor paging over disjoint filters (family x remote), so pages are new. */
function disjointPaging(families: string[]) {
  const pairs = families.flatMap((f) => [
    `job_family=${f}&remote=true`,
    `job_family=${f}&remote=false`,
  ]);
  let next = 0;
  return (context: Record<string, unknown>): string => {
    if (context.mix === undefined) context.mix = pairs[next++ % pairs.length];
    return context.mix as string;
  };
}

async function main(): Promise<void> {
  const databaseUrl =
    process.env.DATABASE_URL ??
    `postgresql://postgres@127.0.0.1:5432/${RECORDS === 1_000_000 ? 'bench1m' : `bench${RECORDS}`}`;
  const opensearchUrl = process.env.OPENSEARCH_URL ?? (await ensureLocalOpenSearch());
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    OPENSEARCH_URL: opensearchUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    CURSOR_SIGNING_KEYS: `bench=${randomBytes(24).toString('base64url')}`,
    OPENSEARCH_TIMEOUT_MS: '30000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  // The bench's own connections: checking 50 SQL counts on a loaded machine outlasts the API's 5 s.
  const deps = await probeDeps({ ...env, POSTGRES_TIMEOUT_MS: '120000' });
  const total = await ensureSeeded(deps, env);
  const [key] = await benchKeys(deps, 1);
  const families = await largestFamilies(deps.pool, 10);
  const mixes = buildMixes(deps, families);
  const ids = (
    await deps.pool.query<{ id: string }>(
      'SELECT id FROM opportunities TABLESAMPLE SYSTEM (1) WHERE deleted_at IS NULL LIMIT 5000',
    )
  ).rows.map((r) => r.id);
  const dbName = new URL(databaseUrl).pathname.slice(1);
  await ensureBaselineIndex(databaseUrl);
  // The baselines must answer the same question: counts checked equal before anything is timed.
  for (const mix of mixes) {
    const [os, sql] = [
      (await deps.search.count({ index: deps.alias, body: mix.count })).body.count,
      await sqlCount(deps.pool, mix),
    ];
    if (os !== sql) console.log(`count mismatch for ${mix.query}: OpenSearch ${os}, SQL ${sql}`);
  }

  const nodeArgs = [
    // Given before the production flags (bench/server.ts): where both set a flag, theirs wins.
    ...(CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${CPU_PROF}`] : []),
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  ];
  if (CPU_PROF) mkdirSync(CPU_PROF, { recursive: true });
  const api: RunningApi = await startApi(env, nodeArgs, undefined, PROCESSES);
  const osPid = pidListeningOn(Number(new URL(opensearchUrl).port));
  const redisPids = pidsNamed('redis-server');
  const pgPids = async () =>
    (
      await deps.pool.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [dbName],
      )
    ).rows.map((r) => r.pid);
  const meters = {
    api: new CpuMeter(() => api.pids()),
    pg: new CpuMeter(pgPids),
    redis: new CpuMeter(() => redisPids),
    os: new CpuMeter(() => (osPid ? [osPid] : [])),
  };
  const rss = rssPeak(() => api.pids());
  console.log(
    `records ${total}; API: ${api.mode}, ${processLabel(api.processes)}; ` +
      `OpenSearch ${opensearchUrl} (pid ${osPid}); ${CONNECTIONS} connections, ${SECONDS} s per workload`,
  );
  console.log(machineLine());
  console.log(await postgresLine(deps.pool));
  console.log(await indexLine(deps.search, deps.alias));

  const apiHeaders = { 'X-API-Key': key };
  const osBase = opensearchUrl.replace(/\/$/, '');
  const json = { 'Content-Type': 'application/json' };
  const listRaw = (m: Mix): Req => ({
    method: 'POST',
    path: `/${deps.alias}/_search`,
    headers: json,
    body: JSON.stringify(m.list),
  });
  const countRaw = (m: Mix): Req => ({
    method: 'POST',
    path: `/${deps.alias}/_count`,
    headers: json,
    body: JSON.stringify(m.count),
  });
  const rotate = <T>(items: T[]) => {
    let i = 0;
    return () => items[i++ % items.length] as T;
  };
  const rows: Row[] = [];

  async function measure(
    workload: string,
    apiNext: (c: Record<string, unknown>) => Req,
    rawNext: ((c: Record<string, unknown>) => Req) | null,
    rawLabel: string,
    extra: {
      onApiBody?: (b: string, c: Record<string, unknown>) => void;
      onRawBody?: (b: string, c: Record<string, unknown>) => void;
      isError?: (b: string) => boolean;
      onApiDone?: (c: Record<string, unknown>) => void;
      sql?: Mix[];
    } = {},
  ): Promise<void> {
    if (ONLY.length && !ONLY.some((o) => workload.startsWith(o))) return;
    await Promise.all(Object.values(meters).map((m) => m.begin()));
    const apiResult = await runLoad({
      url: api.url,
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers: apiHeaders,
      next: apiNext,
      onBody: extra.onApiBody,
      isError: extra.isError,
      onDone: extra.onApiDone,
    });
    const [apiCpu, pgCpu, redisCpu, osCpu] = await Promise.all([
      meters.api.end(),
      meters.pg.end(),
      meters.redis.end(),
      meters.os.end(),
    ]);
    let raw: LoadResult | null = null;
    let rawOs = 0;
    if (rawNext) {
      await meters.os.begin();
      raw = await runLoad({
        url: osBase,
        connections: CONNECTIONS,
        seconds: SECONDS,
        next: rawNext,
        onBody: extra.onRawBody,
      });
      rawOs = (await meters.os.end()) / Math.max(1, raw.requests);
    }
    let sql: Row['sql'];
    if (extra.sql) {
      await meters.pg.begin();
      const r = await countBaseline(databaseUrl, extra.sql, CONNECTIONS, SECONDS);
      sql = { ...r, pgCpu: (await meters.pg.end()) / Math.max(1, r.requests) };
    }
    const n = Math.max(1, apiResult.requests);
    const row: Row = {
      workload,
      api: apiResult,
      raw,
      rawLabel,
      cpu: { api: apiCpu / n, pg: pgCpu / n, redis: redisCpu / n, os: osCpu / n, rawOs },
      sql,
    };
    rows.push(row);
    console.log(formatRow(row));
  }

  console.log(HEADER);
  // Warm-up: JIT of the count and list paths, pools, OpenSearch caches (not measured). Lists of 10
  // have their own cache keys, so the measured workloads still start cold in the API's cache.
  for (const path of ['/v1/opportunities/count?', '/v1/opportunities?limit=10&']) {
    const m = rotate(mixes);
    await runLoad({
      url: api.url,
      connections: CONNECTIONS,
      seconds: 2,
      headers: apiHeaders,
      next: () => ({ path: `${path}${m().query}` }),
    });
  }

  const nextMix = rotate(mixes);
  const nextRawMix = rotate(mixes);
  await measure(
    'list 25, 50 rotating mixes',
    () => ({ path: `/v1/opportunities?${nextMix().query}&limit=25` }),
    () => listRaw(nextRawMix()),
    'search',
  );

  const apiPair = disjointPaging(families);
  const rawPair = disjointPaging(families);
  const rawPairBodies = new Map<string, object>();
  const rawPairBody = (q: string) => {
    let body = rawPairBodies.get(q);
    if (!body) {
      const filter = parseRestQuery('list', Object.fromEntries(new URLSearchParams(q)), {
        taxonomy: deps.taxonomy,
        maxPageSize: 100,
      }).filter;
      body = buildListSearchBody(filter, deps.taxonomy, { size: 26 });
      rawPairBodies.set(q, body);
    }
    return body;
  };
  await measure(
    'list 25, following cursors (new deliveries)',
    (c) => ({
      path: `/v1/opportunities?${apiPair(c)}&limit=25${c.cursor ? `&cursor=${String(c.cursor)}` : ''}`,
    }),
    (c) => ({
      method: 'POST',
      path: `/${deps.alias}/_search`,
      headers: json,
      body: JSON.stringify({
        ...rawPairBody(rawPair(c)),
        ...(c.after ? { search_after: c.after } : {}),
      }),
    }),
    'search_after',
    {
      onApiBody: (b, c) => {
        c.cursor = (
          JSON.parse(b) as { pagination: { next_cursor: string | null } }
        ).pagination.next_cursor;
      },
      onRawBody: (b, c) => {
        const hits = (JSON.parse(b) as { hits: { hits: Array<{ sort: unknown[] }> } }).hits.hits;
        c.after = hits.length > 25 ? hits[24]?.sort : undefined;
      },
    },
  );

  const countMix = rotate(mixes);
  const rawCountMix = rotate(mixes);
  await measure(
    'count, 50 rotating mixes',
    () => ({ path: `/v1/opportunities/count?${countMix().query}` }),
    () => countRaw(rawCountMix()),
    '_count',
    { sql: mixes },
  );

  const dash = mixes.slice(0, 20);
  const dashMix = rotate(dash);
  const rawDashMix = rotate(dash);
  await measure(
    'count, the same 20 repeated (dashboard)',
    () => ({ path: `/v1/opportunities/count?${dashMix().query}` }),
    () => countRaw(rawDashMix()),
    '_count',
  );

  // Counts that no cache can answer, in the API or in OpenSearch (its shard request cache holds
  // the 50 mixes after one pass): each request adds a rate_min of its own, in hundredths. The API
  // takes the even hundredths and OpenSearch the odd ones (each with the same mix), so the raw
  // phase never meets a query the API phase put in OpenSearch's cache, and both spread over the
  // same range of selectivity.
  const freshQuery = (n: number) => {
    const mix = mixes[Math.floor(n / 2) % mixes.length] as Mix;
    return `${mix.query}&rate_min=${((n % 50_000) / 100).toFixed(2)}`;
  };
  let freshApi = 0;
  let freshRaw = 1;
  await measure(
    'count, a fresh filter every request (no cache)',
    () => ({ path: `/v1/opportunities/count?${freshQuery((freshApi += 2))}` }),
    () => {
      const query = Object.fromEntries(new URLSearchParams(freshQuery((freshRaw += 2))));
      const filter = parseRestQuery('count', query, {
        taxonomy: deps.taxonomy,
        maxPageSize: 100,
      }).filter;
      return countRaw({ count: buildCountBody(filter, deps.taxonomy) } as Mix);
    },
    '_count',
  );

  // List pages that no cache has seen (every integrator query is new), by the
  // same fresh rate_min as the counts above; the raw side sends the API's own body (size 26).
  let freshListApi = 0;
  let freshListRaw = 1;
  await measure(
    'list 25, a fresh filter every request (no cache)',
    () => ({ path: `/v1/opportunities?${freshQuery((freshListApi += 2))}&limit=25` }),
    () => {
      const query = Object.fromEntries(new URLSearchParams(freshQuery((freshListRaw += 2))));
      const filter = parseRestQuery('list', query, { taxonomy: deps.taxonomy, maxPageSize: 100 });
      return listRaw({
        list: buildListSearchBody(filter.filter, deps.taxonomy, { size: 26 }),
      } as Mix);
    },
    'search',
  );

  // Histograms and rate statistics, each against the same aggregation sent straight to
  // OpenSearch (a size-0 _search with the same aggregations and the exact total).
  // Histograms and statistics are free but expensive: at most 2 in flight per account (contract
  // 12), so a dashboard load is many accounts. autocannon gives each request a fresh context (it
  // resets it whenever its one-request list starts over), so a connection cannot hold a key:
  // each request takes a key no request in flight holds and gives it back with its response.
  const newest = await newestFreshness(deps.search, deps.alias);
  const dashboardKeys = await benchKeys(deps, CONNECTIONS + 4);
  const idleKeys: string[] = [];
  const takeKey = (c: Record<string, unknown>): string =>
    (c.key = idleKeys.shift() ?? (dashboardKeys[0] as string));
  const giveKey = (c: Record<string, unknown>) => {
    if (typeof c.key === 'string') idleKeys.push(c.key);
  };
  for (const w of dashboardWorkloads(deps.taxonomy, families, newest)) {
    const apiQuery = rotate(w.queries);
    const rawBody = rotate(w.raw);
    // The requests in flight when a workload ends get no response: every key is idle again.
    idleKeys.splice(0, idleKeys.length, ...dashboardKeys);
    await measure(
      w.name,
      (c) => ({
        path: `/v1/opportunities/count?${apiQuery()}`,
        headers: { 'X-API-Key': takeKey(c) },
      }),
      () => ({
        method: 'POST',
        path: `/${deps.alias}/_search`,
        headers: json,
        body: JSON.stringify(rawBody()),
      }),
      '_search aggs',
      { onApiDone: giveKey },
    );
  }

  const agentMix = rotate(dash);
  const rawAgentMix = rotate(dash);
  await measure(
    'list 25, the same 20 repeated (agent)',
    () => ({ path: `/v1/opportunities?${agentMix().query}&limit=25` }),
    () => listRaw(rawAgentMix()),
    'search',
  );

  const nextId = rotate(ids.sort(() => Math.random() - 0.5));
  const nextRawId = rotate([...ids]);
  await measure(
    'detail by random id',
    () => ({ path: `/v1/opportunities/${nextId()}` }),
    () => ({ path: `/${deps.alias}/_doc/${nextRawId()}` }),
    'GET _doc',
  );

  // Keyword search, list (freshness and relevance) and count, against the same bodies
  // sent straight to OpenSearch.
  const keywords = keywordMixes(deps);
  const raw = (kind: 'list' | 'relevance' | 'count') => {
    const next = rotate(keywords);
    return (): Req => {
      const m: KeywordMix = next();
      return {
        method: 'POST',
        path: `/${deps.alias}/${kind === 'count' ? '_count' : '_search'}`,
        headers: json,
        body: JSON.stringify(m[kind]),
      };
    };
  };
  const qList = rotate(keywords);
  await measure(
    'q list 25, 50 rotating queries',
    () => ({ path: `/v1/opportunities?${qList().query}&limit=25` }),
    raw('list'),
    'search',
  );
  const qRelevance = rotate(keywords);
  await measure(
    'q list 25 sort=relevance, 50 rotating queries',
    () => ({ path: `/v1/opportunities?${qRelevance().query}&sort=relevance&limit=25` }),
    raw('relevance'),
    'search',
  );
  const qCount = rotate(keywords);
  await measure(
    'q count, 50 rotating queries',
    () => ({ path: `/v1/opportunities/count?${qCount().query}` }),
    raw('count'),
    '_count',
  );

  // MCP search_opportunities: the 2025-era wire (no envelope), the 2026-07-28 wire (the per-request
  // envelope and its standard headers, served by the SDK's modern leg), and the fields an agent
  // typically asks for.
  const MODERN_META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const mcpSearch = async (label: string, extra: Record<string, unknown>, modern: boolean) => {
    const mcpMix = rotate(mixes);
    const rawMcpMix = rotate(mixes);
    await measure(
      label,
      () => {
        const args = Object.fromEntries(new URLSearchParams(mcpMix().query)) as Record<
          string,
          unknown
        >;
        if (typeof args.job_family === 'string') args.job_family = [args.job_family];
        if (args.remote !== undefined) args.remote = args.remote === 'true';
        const params = {
          name: 'search_opportunities',
          arguments: { ...args, ...extra, limit: 25 },
          ...(modern ? { _meta: MODERN_META } : {}),
        };
        return {
          method: 'POST',
          path: '/mcp',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            ...(modern
              ? {
                  'MCP-Protocol-Version': '2026-07-28',
                  'Mcp-Method': 'tools/call',
                  'Mcp-Name': 'search_opportunities',
                }
              : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
        };
      },
      () => listRaw(rawMcpMix()),
      'search',
      { isError: (b) => b.includes('"isError":true') },
    );
  };
  await mcpSearch('MCP search_opportunities, 50 mixes', {}, false);
  await mcpSearch('MCP search_opportunities 2026-07-28, 50 mixes', {}, true);
  await mcpSearch(
    'MCP search_opportunities with agent fields, 50 mixes',
    { fields: AGENT_FIELDS.filter((f) => f !== 'id') },
    false,
  );

  const newKey = async () => (await benchKeys(deps, 1))[0] ?? '';
  await oneAccountWorkloads({ deps, families, measure, newKey });

  const peak = rss.stop();
  await api.stop();
  const peakLine =
    api.processes === 1
      ? `API peak RSS: ${peak.total.toFixed(0)} MB`
      : `API peak RSS: ${peak.total.toFixed(0)} MB in all (primary and ${api.processes} processes), ` +
        `${peak.largest.toFixed(0)} MB the largest process`;
  console.log(`\n${peakLine}; after the run: ${loadLine()}`);
  const out = path.join(ROOT, '.cache/bench-last.json');
  writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        mode: api.mode,
        processes: api.processes,
        peak: peak.total,
        peakLargest: peak.largest,
        rows,
      },
      null,
      1,
    ),
  );
  console.log(`(figures also in ${path.relative(ROOT, out)})`);
  await shutdown(deps);
}

/** One process, or a primary and its processes (their CPU and RSS are summed). */
function processLabel(processes: number): string {
  return processes === 1
    ? '1 process'
    : `${processes} processes (API_PROCESSES; CPU and RSS: the primary and all of them)`;
}

const HEADER = [
  '| workload | API req/s | p50 ms | p99 ms | errors | raw req/s | ratio | API CPU ms/req | PG ms/req | Redis ms/req | OS ms/req (raw) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
].join('\n');

function formatRow(r: Row): string {
  const f = (n: number, d = 2) => n.toFixed(d);
  const ratio = r.raw ? f(r.api.rps / r.raw.rps) : '-';
  const lines = [
    `| ${r.workload} | ${f(r.api.rps, 0)} | ${r.api.p50} | ${r.api.p99} | ${r.api.errors} | ` +
      `${r.raw ? `${f(r.raw.rps, 0)} (${r.rawLabel}${r.raw.errors ? `, ${r.raw.errors} errors` : ''})` : '-'} | ${ratio} | ` +
      `${f(r.cpu.api)} | ${f(r.cpu.pg)} | ${f(r.cpu.redis)} | ${f(r.cpu.os)} (${f(r.cpu.rawOs)}) |`,
  ];
  if (r.sql) {
    lines.push(
      `| ↳ same counts as SQL on Postgres | ${f(r.sql.rps, 0)} | ${r.sql.p50} | ${r.sql.p99} | ` +
        `${r.sql.errors} | API/SQL | ${f(r.api.rps / r.sql.rps)} | - | ${f(r.sql.pgCpu)} | - | - |`,
    );
  }
  return lines.join('\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/** Keys of fresh enterprise accounts with limits no workload reaches. */
async function benchKeys(deps: AppDeps, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const account = await createAccount(deps.pool, {
      plan: 'enterprise',
      name: `bench ${i}`,
      allowance_override: 1_000_000_000,
      rps_override: 1_000_000,
      balance_millicents: 1_000_000_000_000,
    });
    keys.push((await createApiKey(deps.pool, { accountId: account.id, label: 'bench' })).key);
  }
  return keys;
}
