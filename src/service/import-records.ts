import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Opportunity } from '../domain/record';
import { taxonomyProblems } from '../domain/record-consistency';
import { NO_PROGRESS, type Progress } from '../infra/progress';
import { syncIncremental, type SyncResult } from '../search/sync';
import { upsertOpportunities, type UpsertResult } from '../store/opportunity-repo';
import type { AppDeps } from './context';

export interface RejectedLine {
  line: number;
  errors: string[];
}

export interface ImportReport {
  ok: boolean;
  lines: number;
  valid: number;
  rejected: RejectedLine[];
  store: UpsertResult;
  sync: SyncResult;
}

const BATCH = 1000;
const MAX_REPORTED = 1000;

/**
 * `import FILE` (decisions 10): NDJSON, one public record a line, taken as canonical. A bad line is
 * reported by number and reason and nothing of it is written; valid lines are upserted by id in
 * batches, then synced to the index before this returns. Blank lines are skipped.
 */
export async function importNdjson(
  deps: AppDeps,
  file: string,
  progress: Progress = NO_PROGRESS,
): Promise<ImportReport> {
  const store: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  const rejected: RejectedLine[] = [];
  let rejectedCount = 0;
  let lines = 0;
  let valid = 0;
  // Keyed by id: a later line for the same id wins, and one batch never upserts an id twice.
  let batch = new Map<string, Opportunity>();
  progress.phase('store', null);

  const flush = async () => {
    if (!batch.size) return;
    const result = await upsertOpportunities(deps.pool, [...batch.values()], deps.taxonomy.version);
    store.inserted += result.inserted;
    store.updated += result.updated;
    store.unchanged += result.unchanged;
    batch = new Map();
  };

  const input = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const text of input) {
    lines++;
    progress.advance(1);
    if (!text.trim()) continue;
    const result = validateLine(text, deps);
    if (Array.isArray(result)) {
      rejectedCount++;
      if (rejected.length < MAX_REPORTED) rejected.push({ line: lines, errors: result });
      continue;
    }
    batch.set(result.id, result);
    valid++;
    if (batch.size >= BATCH) await flush();
  }
  await flush();
  const sync = await syncIncremental({ ...deps, progress });
  return { ok: rejectedCount === 0, lines, valid, rejected, store, sync };
}

function validateLine(text: string, deps: AppDeps): Opportunity | string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return ['not valid JSON'];
  }
  const parsed = Opportunity.safeParse(json);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`);
  }
  const problems = taxonomyProblems(parsed.data, deps.taxonomy);
  return problems.length ? problems : parsed.data;
}
