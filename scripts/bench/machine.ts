import { cpus, loadavg, totalmem } from 'node:os';
import type { Client } from '@opensearch-project/opensearch';
import type { Pool } from 'pg';
import { primaryStoreBytes } from '../../src/search/index-compaction';
import { liveMappingVersion } from '../../src/search/index-definition';
import { aliasTargets } from '../../src/search/index-manager';

// What a reader needs to compare two bench runs: the figures move with the machine, its load and
// these Postgres settings (autovacuum off and synchronous_commit on cost several times more per
// charged request than a tuned server), so every run prints them beside its table.

const PG_SETTINGS = ['autovacuum', 'synchronous_commit', 'shared_buffers', 'work_mem', 'fsync'];

export function machineLine(): string {
  const cpu = cpus();
  const model = cpu[0]?.model.trim() ?? 'unknown CPU';
  const memGiB = (totalmem() / 2 ** 30).toFixed(0);
  return `machine: ${model}, ${cpu.length} cores, ${memGiB} GiB; ${loadLine()}`;
}

export function loadLine(): string {
  return `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
}

export async function postgresLine(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ name: string; setting: string; unit: string | null }>(
    'SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1) ORDER BY name',
    [PG_SETTINGS],
  );
  const version =
    (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ??
    '?';
  const settings = rows.map((r) => `${r.name}=${r.setting}${r.unit ? ` ${r.unit}` : ''}`);
  return `postgres ${version}: ${settings.join(', ')}`;
}

interface NodesJvm {
  nodes?: Record<string, { name?: string; jvm?: { input_arguments?: string[] } }>;
}

/**
 * The engine's nodes whose JVM runs without its optimising compiler (`-XX:TieredStopAtLevel` below
 * 4): the test suite launches the local engine so (OPENSEARCH_JIT=c1), and such an engine's searches
 * cost it about a third more CPU (docs/testing.md, Suite time), which would skew the raw baseline
 * and every ratio.
 */
export function nodesWithoutC2(info: NodesJvm): string[] {
  return Object.entries(info.nodes ?? {})
    .filter(([, node]) =>
      (node.jvm?.input_arguments ?? []).some((arg) => {
        const level = /^-XX:TieredStopAtLevel=(\d+)$/.exec(arg)?.[1];
        return level !== undefined && Number(level) < 4;
      }),
    )
    .map(([id, node]) => node.name ?? id);
}

/**
 * Refuses an engine whose JVM compiles with C1 only: its figures are not the engine's. A managed
 * engine that does not show its nodes (a 4xx to `_nodes`, as Amazon's serverless collections
 * answer) runs JVMs nobody here launched, so it is measured as it is.
 */
export async function assertFullJit(client: Pick<Client, 'nodes'>): Promise<void> {
  let info: NodesJvm;
  try {
    info = (await client.nodes.info({ metric: ['jvm'] })).body as NodesJvm;
  } catch (err) {
    const status = (err as { meta?: { statusCode?: number } }).meta?.statusCode;
    if (status !== undefined && status >= 400 && status < 500) return;
    throw err;
  }
  const slow = nodesWithoutC2(info);
  if (slow.length > 0)
    throw new Error(
      `OpenSearch node(s) ${slow.join(', ')} run with C1 only (the test suite's OPENSEARCH_JIT=c1): ` +
        'restart the engine before measuring (npm run opensearch -- stop; npm run opensearch -- start)',
    );
}

/**
 * The index the run reads, as the raw baseline depends on it: the same searches ran 14-25 % faster
 * from one merged segment than from the 14 a bulk load leaves (docs/benchmarks.md, mapping 7).
 */
export async function indexLine(client: Client, alias: string): Promise<string> {
  const [version, [name], segments, bytes] = await Promise.all([
    liveMappingVersion(client, alias),
    aliasTargets(client, alias),
    client.cat.segments({ index: alias, format: 'json' }),
    primaryStoreBytes(client, alias),
  ]);
  const count = (segments.body as unknown[]).length;
  const size = `${(bytes / 2 ** 20).toFixed(0)} MB`;
  return `index ${name ?? '?'}: mapping ${version ?? '?'}, ${count} segment${count === 1 ? '' : 's'}, ${size}`;
}
