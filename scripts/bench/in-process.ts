import type { AddressInfo } from 'node:net';
import { compose, type Capabilities } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { shutdown } from '../../src/bootstrap';
import type { AppDeps } from '../../src/service/context';
import { probeDeps } from './probe-deps';

// What bench-list and bench-new-count share: the API in this process on an ephemeral port, and
// medians and p95s of repeated timed calls.

/** The composed app over bootstrap's clients, listening on 127.0.0.1 at an ephemeral port. */
export async function inProcessApi(): Promise<{
  deps: AppDeps;
  /** The composed capabilities the server runs on (the index, for search-only figures). */
  capabilities: Capabilities;
  base: string;
  close(): Promise<void>;
}> {
  const deps = await probeDeps();
  const capabilities = compose(deps);
  const server = createApp(capabilities).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    deps,
    capabilities,
    base,
    async close() {
      server.close();
      await shutdown(deps);
    },
  };
}

/** Median and p95 in ms, rounded to `decimals`. */
export function stats(samples: number[], decimals: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const round = (n: number) => Math.round(n * 10 ** decimals) / 10 ** decimals;
  return { median: round(at(0.5)), p95: round(at(0.95)), n: sorted.length };
}

/** `runs` timed calls of fn after `warmups` untimed ones. */
export async function time(
  fn: () => Promise<unknown>,
  options: { runs: number; warmups: number; decimals: number },
): Promise<ReturnType<typeof stats>> {
  for (let i = 0; i < options.warmups; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return stats(samples, options.decimals);
}
