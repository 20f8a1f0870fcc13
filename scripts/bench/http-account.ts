import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { inProcessApi, stats as sharedStats, time as timed } from './in-process';

// What the HTTP benchmarks share on top of in-process.ts: a fresh account of their own
// with room to work (no limit shapes the figures), a GET with its key, timings to 0.1 ms and the
// load average printed beside them.

const round = (n: number) => Math.round(n * 10) / 10;

export const stats = (samples: number[]) => sharedStats(samples, 1);

/** `runs` timed calls of fn after `warmup` untimed ones, in milliseconds. */
export const time = (fn: () => Promise<unknown>, runs: number, warmup = 2) =>
  timed(fn, { runs, warmups: warmup, decimals: 1 });

export async function benchAccount(name: string) {
  const { deps, base, close } = await inProcessApi();
  // Free plan (UTC calendar month) with room to work.
  const account = await createAccount(deps.pool, {
    plan: 'free',
    name,
    allowance_override: 100_000_000,
    rps_override: 100_000,
    page_size_override: 100,
  });
  const { key, id: keyId } = await createApiKey(deps.pool, { accountId: account.id });
  const get = async (path: string) => {
    const res = await fetch(base + path, {
      headers: { 'X-API-Key': key, 'X-Request-ID': randomUUID() },
    });
    if (res.status !== 200) throw new Error(`${path} → ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return { deps, account, keyId, get, close };
}

export const loadAverage = async () => loadavg().map(round);
