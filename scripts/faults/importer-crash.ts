import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { loadTaxonomyCatalog } from '../../src/domain/taxonomy/catalog';
import { generateOpportunities } from '../../src/seed/generate';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { checkLedger } from './ledger';
import { failed, type Load } from './load';
import { track, waitFor } from './procs';
import type { Run } from './run';

// contract §22.8, `npm run faults`: the importer is killed (kill -9) between its store write and its
// sync. The store then holds new records and deletions the index has not seen; nothing is run by
// hand. The API instances' index followers (SYNC_INTERVAL_MS) must make the new records
// searchable and the deleted ones vanish within the interval (plus a refresh), while the load
// goes on and the ledger invariants stay exact.
//
// To stop the importer exactly there, its search engine is reached through a proxy that passes
// everything but bulk requests, which it swallows: the import writes the store, starts its sync,
// and waits on its first bulk call, where it is killed.

const ROOT = path.resolve(__dirname, '../..');
const NEW_RECORDS = 300;
const DELETIONS = 50;

export interface ImporterCrashWorld {
  run: Run;
  pool: Pool;
  load: Load;
  /** The load balancer in front of the API instances. */
  apiUrl: () => string;
  syncIntervalMs: number;
  cursorKeys: string;
}

type Report = (fault: string, ok: boolean, figures: Record<string, unknown>) => void;

export async function importerCrash(world: ImporterCrashWorld, report: Report): Promise<void> {
  const { run, pool, load } = world;
  const reader = await createAccount(pool, { plan: 'builder', rps_override: 1000 });
  const { key } = await createApiKey(pool, { accountId: reader.id });
  const apiCount = async () => {
    const res = await fetch(`${world.apiUrl()}/v1/opportunities/count`, {
      headers: { 'X-API-Key': key },
      signal: AbortSignal.timeout(30_000),
    });
    return res.status === 200 ? ((await res.json()) as { count: number }).count : -1;
  };
  const countBefore = await apiCount();

  // What the importer brings: records never stored, and deletions of listed ones.
  const stored = await pool.query<{ id: string }>('SELECT id FROM opportunities');
  const known = new Set(stored.rows.map((r) => r.id));
  const records = [
    ...generateOpportunities({
      count: NEW_RECORDS * 2,
      seed: 4242,
      taxonomy: run.deps.taxonomy,
      catalog: loadTaxonomyCatalog(),
    }),
  ]
    .filter((r) => !known.has(r.id))
    .slice(0, NEW_RECORDS);
  const doomed = (
    await pool.query<{ id: string }>(
      'SELECT id FROM opportunities WHERE deleted_at IS NULL ORDER BY id LIMIT $1',
      [DELETIONS],
    )
  ).rows.map((r) => r.id);
  const dir = mkdtempSync(path.join(tmpdir(), 'faults-import-'));
  const file = path.join(dir, 'import.ndjson');
  writeFileSync(
    file,
    [...records, ...doomed.map((id) => ({ id, deleted: true }))]
      .map((l) => JSON.stringify(l))
      .join('\n'),
  );
  const newIds = records.map((r) => r.id);
  const indexed = async (ids: string[]) =>
    (
      await run.deps.search.count({
        index: run.deps.alias,
        body: { query: { ids: { values: ids } } },
      })
    ).body.count;

  const swallow = await startBulkSwallower(new URL(run.searchUrl.split(',')[0] ?? '').port);
  const importer = track(
    spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', file, '--json'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: run.databaseUrl,
        OPENSEARCH_URL: swallow.url,
        CURSOR_SIGNING_KEYS: world.cursorKeys,
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    }),
  );
  try {
    // The store written, the sync started and stuck on its first bulk call: kill -9 there.
    await waitFor(
      async () => {
        const { rows } = await pool.query<{ live: string; gone: string }>(
          `SELECT count(*) FILTER (WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL) AS live,
                  count(*) FILTER (WHERE id = ANY($2::uuid[]) AND deleted_at IS NOT NULL) AS gone
             FROM opportunities`,
          [newIds, doomed],
        );
        return (
          Number(rows[0]?.live) === newIds.length &&
          Number(rows[0]?.gone) === doomed.length &&
          swallow.swallowed > 0
        );
      },
      300_000,
      'the importer between its store write and its sync',
    );
    importer.kill('SIGKILL');
    const killedAt = Date.now();
    const indexedAtKill = await indexed(newIds);

    const expected = countBefore + newIds.length - doomed.length;
    const healedMs = await waitFor(
      async () =>
        (await indexed(newIds)) === newIds.length &&
        (await indexed(doomed)) === 0 &&
        (await apiCount()) === expected,
      120_000,
      'the index following the store',
    );
    const bound = 2 * world.syncIntervalMs + 5000;
    const during = load.since(killedAt);
    const fivexx = during.filter((s) => s.status >= 500 || s.status === 0).length;
    const ledger = await checkLedger(pool);
    report(
      'importer killed between store write and sync',
      countBefore > 0 && indexedAtKill === 0 && healedMs <= bound && fivexx === 0 && ledger.holds,
      {
        newRecords: newIds.length,
        deletions: doomed.length,
        newRecordsIndexedWhenKilled: indexedAtKill,
        countBefore,
        countAfter: expected,
        msFromKillToListedAndDeletedGone: healedMs,
        boundMs: bound,
        syncIntervalMs: world.syncIntervalMs,
        loadErrorsMeanwhile: during.filter(failed).length,
        load5xx: fivexx,
        ledger: ledger.violations,
      },
    );
  } finally {
    importer.kill('SIGKILL');
    await swallow.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A TCP proxy to a search node that never forwards a bulk request (nor answers it). */
async function startBulkSwallower(port: string): Promise<{
  url: string;
  readonly swallowed: number;
  close(): Promise<void>;
}> {
  let swallowed = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), '127.0.0.1');
    let stuck = false;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => {
      if (!stuck && /^[A-Z]+ \S*_bulk/.test(chunk.subarray(0, 512).toString('latin1'))) {
        stuck = true;
        swallowed++;
      }
      if (!stuck) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get swallowed() {
      return swallowed;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
