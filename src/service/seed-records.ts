import { generateOpportunities } from '../seed/generate';
import { loadTaxonomyCatalog } from '../domain/taxonomy/catalog';
import type { Opportunity } from '../domain/record';
import { NO_PROGRESS, type Progress } from '../infra/progress';
import { syncIncremental, type SyncResult } from '../search/sync';
import {
  settleOpportunities,
  upsertOpportunities,
  type UpsertResult,
} from '../store/opportunity-repo';
import type { AppDeps } from './context';

export interface SeedReport {
  ok: true;
  count: number;
  seed: number;
  store: UpsertResult;
  sync: SyncResult;
  seconds: { store: number; index: number; total: number };
  records_per_second: number;
}

const BATCH = 2000;

/**
 * `seed --count N [--seed S]`: deterministic synthetic records, inserted and then synced to the
 * index. Reports end-to-end throughput (docs/benchmarks.md). An id already stored, or removed, is
 * left as it is: a seed never overwrites an import's edit or brings back a deleted record. So a
 * run that stopped part-way is continued by running it again (sync resumes from its watermark).
 */
export async function seedRecords(
  deps: AppDeps,
  count: number,
  seed: number,
  progress: Progress = NO_PROGRESS,
): Promise<SeedReport> {
  const started = performance.now();
  const store: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  const catalog = loadTaxonomyCatalog();
  if (catalog.version !== deps.taxonomy.version) {
    throw new Error(
      `seed catalog ${catalog.version} does not match taxonomy ${deps.taxonomy.version}`,
    );
  }
  let batch: Opportunity[] = [];
  progress.phase('store', count);
  const flush = async () => {
    const result = await upsertOpportunities(deps.pool, batch, deps.taxonomy.version, {
      keepStored: true,
    });
    progress.advance(batch.length);
    store.inserted += result.inserted;
    store.updated += result.updated;
    store.unchanged += result.unchanged;
    batch = [];
  };
  for (const record of generateOpportunities({ count, seed, taxonomy: deps.taxonomy, catalog })) {
    batch.push(record);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  if (store.inserted + store.updated > 0) await settleOpportunities(deps.pool);
  const stored = performance.now();
  const sync = await syncIncremental({ ...deps, progress });
  const done = performance.now();
  const total = (done - started) / 1000;
  return {
    ok: true,
    count,
    seed,
    store,
    sync,
    seconds: {
      store: round((stored - started) / 1000),
      index: round((done - stored) / 1000),
      total: round(total),
    },
    records_per_second: Math.round(count / total),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
