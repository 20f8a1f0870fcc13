import type { Opportunity } from './record';
import type { Taxonomy, TaxonomyLevel } from './taxonomy';

type TaxonomyField = 'job_domain' | 'job_family' | 'job_subfamily' | 'job_class';

const TAXONOMY_FIELDS: ReadonlyArray<readonly [TaxonomyField, TaxonomyLevel]> = [
  ['job_domain', 'domain'],
  ['job_family', 'family'],
  ['job_subfamily', 'subfamily'],
  ['job_class', 'class'],
];

/**
 * Checks a record's classification against the taxonomy: every id exists at its own level, and a
 * classified record names the whole chain above its deepest id, each the real ancestor of the
 * next (so "a family includes every descendant role" holds in the index). Returns the problems.
 */
export function taxonomyProblems(record: Opportunity, taxonomy: Taxonomy): string[] {
  const problems: string[] = [];
  let deepest = -1;
  TAXONOMY_FIELDS.forEach(([field, level], depth) => {
    const id = record[field];
    if (id === null) return;
    if (taxonomy.isLevel(id, level)) deepest = depth;
    else problems.push(`${field}: '${id}' is not a ${level} of taxonomy ${taxonomy.version}`);
  });
  const deepestEntry = TAXONOMY_FIELDS[deepest];
  if (problems.length || !deepestEntry) return problems;
  const deepestId = record[deepestEntry[0]] ?? '';
  for (const [field, level] of TAXONOMY_FIELDS.slice(0, deepest)) {
    const expected = taxonomy.ancestorAt(deepestId, level) ?? null;
    if (record[field] !== expected)
      problems.push(`${field}: must be '${expected}', the ${level} of ${deepestId}`);
  }
  return problems;
}
