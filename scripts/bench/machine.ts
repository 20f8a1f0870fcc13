import { cpus, loadavg, totalmem } from 'node:os';
import type { Pool } from 'pg';

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
