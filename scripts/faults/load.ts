import { randomUUID } from 'node:crypto';

// Steady mixed load for the fault and soak runs: list pages following cursors, counts,
// details and MCP searches, from several keys of several accounts, a fixed number of workers.

export interface Sample {
  at: number;
  op: string;
  status: number;
  code: string | undefined;
  ms: number;
  /** New opportunities the answer says it delivered (X-Service-New-Opportunity-Count; 0 if none). */
  delivered: number;
}

export interface LoadOptions {
  baseUrl: () => string;
  keys: string[];
  workers: number;
  /** Pause between a worker's requests, so that the load is steady rather than maximal. */
  pauseMs: number;
  /** A request that takes longer is abandoned and counted as a hang (status 0, code 'hang'). */
  hangMs?: number;
}

const FILTERS = ['', 'remote=true', 'job_family=data', 'engagement_model=c2c', 'country=US'];

export class Load {
  readonly samples: Sample[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  /** Cursors that some worker was given and paged on: replayed after a fault (cursor validity). */
  readonly openCursors: { key: string; filter: string; cursor: string }[] = [];
  cursorFailures = 0;

  constructor(private readonly options: LoadOptions) {}

  start(): void {
    this.running = true;
    for (let w = 0; w < this.options.workers; w++) this.loops.push(this.worker(w));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
  }

  since(t: number): Sample[] {
    return this.samples.filter((s) => s.at >= t);
  }

  private async worker(w: number): Promise<void> {
    const key = this.options.keys[w % this.options.keys.length] ?? '';
    let cursor: string | null = null;
    let filter = FILTERS[w % FILTERS.length] ?? '';
    const ids: string[] = [];
    for (let n = 0; this.running; n++) {
      const op = ['list', 'list', 'count', 'detail', 'mcp'][n % 5] ?? 'list';
      if (op === 'list') {
        const q = [filter, 'limit=5', cursor ? `cursor=${encodeURIComponent(cursor)}` : '']
          .filter(Boolean)
          .join('&');
        const body = await this.call('list', key, `/v1/opportunities?${q}`);
        const page = body as {
          data?: { id: string }[];
          pagination?: { next_cursor: string | null };
        };
        if (page?.data) {
          ids.push(...page.data.map((r) => r.id));
          if (ids.length > 50) ids.splice(0, ids.length - 50);
          cursor = page.pagination?.next_cursor ?? null;
          if (cursor && this.openCursors.length < 200)
            this.openCursors.push({ key, filter, cursor });
          if (!cursor) filter = FILTERS[(FILTERS.indexOf(filter) + 1) % FILTERS.length] ?? '';
        }
      } else if (op === 'count') {
        await this.call('count', key, `/v1/opportunities/count?${filter}`);
      } else if (op === 'detail' && ids.length > 0) {
        await this.call('detail', key, `/v1/opportunities/${ids[n % ids.length]}`);
      } else {
        await this.mcpSearch(key, filter);
      }
      if (this.options.pauseMs > 0) await sleep(this.options.pauseMs);
    }
  }

  /** Pages once on each recorded cursor: 400 malformed_cursor would mean a cursor broke. */
  async replayCursors(limit = 20): Promise<{ tried: number; ok: number; failed: number }> {
    let ok = 0;
    let failed = 0;
    const picked = this.openCursors.slice(-limit);
    for (const c of picked) {
      const q = [c.filter, 'limit=1', `cursor=${encodeURIComponent(c.cursor)}`].filter(Boolean);
      const res = await this.request('cursor-replay', c.key, `/v1/opportunities?${q.join('&')}`);
      if (res.status === 200) ok++;
      else failed++;
    }
    return { tried: picked.length, ok, failed };
  }

  private async mcpSearch(key: string, filter: string): Promise<void> {
    const args: Record<string, unknown> = { limit: 5 };
    if (filter === 'remote=true') args.remote = true;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_opportunities', arguments: args },
    });
    await this.call('mcp', key, '/mcp', {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
    });
  }

  private async call(
    op: string,
    key: string,
    path: string,
    init: RequestInit = {},
  ): Promise<unknown> {
    const res = await this.request(op, key, path, init);
    return res.body;
  }

  async request(
    op: string,
    key: string,
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: number; body: unknown }> {
    const started = Date.now();
    let status = 0;
    let code: string | undefined;
    let body: unknown = null;
    let delivered = 0;
    try {
      const res = await fetch(`${this.options.baseUrl()}${path}`, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          'X-API-Key': key,
          'X-Request-ID': randomUUID(),
        },
        signal: AbortSignal.timeout(this.options.hangMs ?? 30_000),
      });
      status = res.status;
      delivered = Number(res.headers.get('X-Service-New-Opportunity-Count') ?? 0);
      body = await res.json().catch(() => null);
      code = (body as { error?: { code?: string } } | null)?.error?.code;
      const tool = body as {
        result?: { isError?: boolean; structuredContent?: { error?: { code?: string } } };
      };
      if (op === 'mcp' && tool?.result?.isError) code = tool.result.structuredContent?.error?.code;
    } catch (err) {
      const name = (err as { name?: string }).name;
      code = name === 'TimeoutError' ? 'hang' : 'network';
    }
    if (op === 'cursor-replay' && status !== 200) this.cursorFailures++;
    this.samples.push({ at: started, op, status, code, ms: Date.now() - started, delivered });
    return { status, body };
  }
}

/**
 * What the answers of an outage said they delivered, against the deliveries counted in Postgres
 * between two reads (the first from countedFrom until downFrom, the second from countedTo until
 * countedUntil): `least` from the answers that surely fell between the reads, `most` from every
 * answer that may have, and `byRefusals` from the answers that were not 200 (it must be 0:
 * nothing is charged for a refused request, contract §20.5).
 */
export function reportedDeliveries(
  samples: Sample[],
  window: { countedFrom: number; downFrom: number; countedTo: number; countedUntil: number },
): { least: number; most: number; byRefusals: number } {
  const sum = (of: Sample[]) => of.reduce((n, s) => n + s.delivered, 0);
  const ended = (s: Sample) => s.at + s.ms;
  return {
    least: sum(samples.filter((s) => s.at >= window.downFrom && ended(s) <= window.countedTo)),
    most: sum(samples.filter((s) => ended(s) >= window.countedFrom && s.at <= window.countedUntil)),
    byRefusals: sum(
      samples.filter(
        (s) => s.status !== 200 && s.at >= window.downFrom && s.at <= window.countedTo,
      ),
    ),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a run prints after each fault. */
export function summarize(samples: Sample[]): {
  requests: number;
  byStatus: Record<string, number>;
  byCode: Record<string, number>;
  longestMs: number;
  p50: number;
  p99: number;
} {
  const byStatus: Record<string, number> = {};
  const byCode: Record<string, number> = {};
  for (const s of samples) {
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    // MCP tool errors come with HTTP 200 and their code inside.
    if (s.code) byCode[s.code] = (byCode[s.code] ?? 0) + 1;
  }
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return {
    requests: samples.length,
    byStatus,
    byCode,
    longestMs: sorted[sorted.length - 1] ?? 0,
    p50: pct(0.5),
    p99: pct(0.99),
  };
}

/** A request that failed because of the service (not a 4xx the client caused). */
export const failed = (s: Sample) =>
  s.status === 0 ||
  s.status >= 500 ||
  s.code === 'search_unavailable' ||
  s.code === 'metering_unavailable';
