import { unstorableTexts } from '../domain/storable-text';
import { recordInUtc } from '../domain/utc-times';
import { ImportDeletion, isDeletionLine } from '../domain/import-deletion';
import { Opportunity } from '../domain/record';
import { taxonomyProblems } from '../domain/record-consistency';
import { NO_PROGRESS, type Progress } from '../infra/progress';
import { textLines } from '../infra/text-lines';
import { syncIncremental, type SyncResult } from '../search/sync';
import {
  deleteOpportunities,
  settleOpportunities,
  upsertOpportunities,
  type UpsertResult,
} from '../store/opportunity-repo';
import type { AppDeps } from './context';

export interface RejectedLine {
  line: number;
  errors: string[];
}

export interface ImportStoreResult extends UpsertResult {
  /** Records removed by deletion lines (each a tombstone in the change feed). */
  deleted: number;
}

export interface ImportReport {
  ok: boolean;
  lines: number;
  valid: number;
  /** The first MAX_REPORTED bad lines, in line order. */
  rejected: RejectedLine[];
  /** Every bad line, `rejected` holding the first of them. */
  rejected_count: number;
  store: ImportStoreResult;
  /** Null with `sync: false` (import --no-sync): the index follower indexes them later. */
  sync: SyncResult | null;
}

/** A pending line of the batch: a record to upsert, or the line number of a deletion. */
type Pending = { record: Opportunity } | { deleteLine: number };

const BATCH = 1000;
const MAX_REPORTED = 1000;
/**
 * A line longer than this is a bad line, skipped unread. The longest record the schema allows
 * (every list at its bound, every text at its length) is a few hundred KB of JSON.
 */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * `import FILE` (contract §22.10): NDJSON, one public record a line, taken as canonical, or a deletion
 * line `{"id": "...", "deleted": true}` that removes a stored record exactly as `delete ID` does
 * (its tombstone appears in the change feed). A bad line is reported by number and reason and
 * nothing of it is written; a deletion line whose id is not a stored record at that point of the
 * file is a bad line too. Valid lines are applied in batches, in file order, then synced to the
 * index before this returns (unless `sync: false`: then the index follower of the API processes
 * indexes them, contract §22.8). Blank lines are skipped.
 */
export async function importNdjson(
  deps: AppDeps,
  file: string,
  progress: Progress = NO_PROGRESS,
  options: { sync?: boolean } = {},
): Promise<ImportReport> {
  const store: ImportStoreResult = { inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
  const rejected: RejectedLine[] = [];
  let rejectedCount = 0;
  let lines = 0;
  let valid = 0;
  // The first MAX_REPORTED bad lines by number, kept in order: a deletion of an id that is not
  // stored is found only when its batch is written, after later lines were read (and, when those
  // were bad, had filled the list: the earlier line was counted but not listed).
  const reject = (line: number, errors: string[]) => {
    rejectedCount++;
    const last = rejected[rejected.length - 1];
    if (rejected.length >= MAX_REPORTED && last && last.line <= line) return;
    let at = rejected.length;
    while (at > 0 && (rejected[at - 1]?.line ?? 0) > line) at--;
    rejected.splice(at, 0, { line, errors });
    if (rejected.length > MAX_REPORTED) rejected.pop();
  };
  // Keyed by id: one batch never touches an id twice. A line meeting a pending line of the same id
  // flushes first, so file order holds (a record then its deletion removes it; a deletion then
  // the record stores it again; a record then a change of it is stored, then updated).
  let batch = new Map<string, Pending>();
  progress.phase('store', null);

  const storeRun = async (records: Opportunity[]) => {
    const result = await upsertOpportunities(deps.pool, records, deps.taxonomy.version);
    store.inserted += result.inserted;
    store.updated += result.updated;
    store.unchanged += result.unchanged;
  };
  const removeRun = async (deletions: Map<string, number>) => {
    const removed = new Set(await deleteOpportunities(deps.pool, [...deletions.keys()]));
    store.deleted += removed.size;
    for (const [id, line] of deletions) {
      if (removed.has(id)) continue;
      valid--;
      reject(line, [`id: ${id} is not a stored record (never imported, or already removed)`]);
    }
  };
  // The batch is written as runs of one kind in file order (records, then deletions, then records
  // again...): each write takes the next change positions, so the change feed lists the import's
  // lines in the file's order (contract §12.2). All records first put every deletion of a batch
  // after them.
  const flush = async () => {
    const pending = batch;
    batch = new Map();
    let records: Opportunity[] = [];
    let deletions = new Map<string, number>();
    for (const [id, line] of pending) {
      if ('record' in line) {
        if (deletions.size) await removeRun(deletions);
        deletions = new Map();
        records.push(line.record);
      } else {
        if (records.length) await storeRun(records);
        records = [];
        deletions.set(id, line.deleteLine);
      }
    }
    if (records.length) await storeRun(records);
    if (deletions.size) await removeRun(deletions);
  };

  for await (const read of textLines(file, MAX_LINE_BYTES)) {
    lines++;
    progress.advance(1);
    if ('problem' in read) {
      reject(lines, [read.problem]);
      continue;
    }
    // A file saved with a byte order mark (Windows tools write one) starts with U+FEFF.
    const text = lines === 1 && read.text.startsWith('\uFEFF') ? read.text.slice(1) : read.text;
    if (!text.trim()) continue;
    const result = validateLine(text, deps);
    if (Array.isArray(result)) {
      reject(lines, result);
      continue;
    }
    valid++;
    if ('deleted' in result) {
      const id = result.id.toLowerCase();
      if (batch.has(id)) await flush();
      batch.set(id, { deleteLine: lines });
    } else {
      // Any pending line of the same id flushes first: each line is stored, and counted in
      // `store`, in file order (a record given twice counted once, as its last line).
      if (batch.has(result.id)) await flush();
      batch.set(result.id, { record: result });
    }
    if (batch.size >= BATCH) await flush();
  }
  await flush();
  if (store.inserted + store.updated + store.deleted > 0) await settleOpportunities(deps.pool);
  const sync = options.sync === false ? null : await syncIncremental({ ...deps, progress });
  return {
    ok: rejectedCount === 0,
    lines,
    valid,
    rejected,
    rejected_count: rejectedCount,
    store,
    sync,
  };
}

/** At most five key names, then how many more: a whole record's keys would fill the report. */
function namedKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).join(', ');
  return keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
}

function validateLine(text: string, deps: AppDeps): Opportunity | ImportDeletion | string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return ['not valid JSON'];
  }
  const unstorable = unstorableTexts(json);
  if (unstorable.length)
    return unstorable.map(
      (path) => `${path}: holds U+0000 or an unpaired surrogate (not storable)`,
    );
  if (isDeletionLine(json)) {
    const deletion = ImportDeletion.safeParse(json);
    if (deletion.success) return deletion.data;
    return deletion.error.issues.map((i) =>
      // A record line that also says `deleted` is read as a deletion: say what a deletion holds.
      i.code === 'unrecognized_keys'
        ? `(deletion): a deletion line holds only id, deleted and changed_at; this one also has ${namedKeys(i.keys)}`
        : `${i.path.join('.') || '(deletion)'}: ${i.message}`,
    );
  }
  const parsed = Opportunity.safeParse(json);
  if (!parsed.success) {
    // One reason once: a field checked by two rules can fail both with the same words.
    return [
      ...new Set(parsed.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`)),
    ];
  }
  const problems = taxonomyProblems(parsed.data, deps.taxonomy);
  if (problems.length) return problems;
  // A uuid's hex digits may come in either case; the store keys and the API serves ids in lower
  // case, as the detail path and deletion lines read them.
  return recordInUtc({ ...parsed.data, id: parsed.data.id.toLowerCase() });
}
