// Which records of a list page are served, decided INSIDE the metering transaction, under the
// account lock, from the ids that are new at that moment (contract §11.2): so a budget holds even
// when pages of one account run in parallel.

export interface PageRules {
  /** max_new: stop before the record that would be the (maxNew+1)-th new one. */
  maxNew?: number;
  /** unseen_only: serve only new records (one delivered meanwhile by a parallel page is left out). */
  newOnly?: boolean;
}

export interface PageCut {
  /** How many records of the page, from its start, were considered: the cursor resumes after them. */
  consumed: number;
  /** The ids served, in page order. */
  served: string[];
  /** The served ids that are new this period, in page order. */
  newIds: string[];
}

export function cutPage(
  pageIds: readonly string[],
  newIds: ReadonlySet<string>,
  rules: PageRules = {},
): PageCut {
  const served: string[] = [];
  const fresh: string[] = [];
  let consumed = 0;
  const taken = new Set<string>();
  for (const id of pageIds) {
    // An id twice in one page is new once: its second appearance is a repeat.
    const isNew = newIds.has(id) && !taken.has(id);
    if (isNew && rules.maxNew !== undefined && fresh.length >= rules.maxNew) break;
    consumed += 1;
    if (isNew) {
      fresh.push(id);
      taken.add(id);
    }
    if (isNew || !rules.newOnly) served.push(id);
  }
  return { consumed, served, newIds: fresh };
}
