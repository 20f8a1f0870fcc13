import { readFileSync } from 'node:fs';
import path from 'node:path';

// The synonym list of the keyword search (contract §7.2): one file in the repository, Solr format,
// read once. OpenSearch gets its rules inline in the settings of each new index version (the node
// reads analysis files only from its own config directory, so a file path would tie the index to
// one machine); the in-memory index of the fast suite expands the same rules (memory-text.ts).

const SYNONYMS_FILE = path.resolve(__dirname, '../../index-mappings/synonyms.txt');

/** The rules of a synonyms file's text: comments and blank lines dropped, each rule trimmed. */
export function synonymRules(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

let cached: string[] | undefined;

/** The rules of index-mappings/synonyms.txt. */
export function repositorySynonyms(): string[] {
  cached ??= synonymRules(readFileSync(SYNONYMS_FILE, 'utf8'));
  return cached;
}

/**
 * One rule as query-side rewrites: for each term a query may hold, the terms it also matches.
 * `a, b` makes a and b match each other; `a, b => c` makes a and b match c only.
 */
export function synonymMap(rules: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const split = (side: string) =>
    side
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
  for (const rule of rules) {
    const arrow = rule.indexOf('=>');
    const from = split(arrow < 0 ? rule : rule.slice(0, arrow));
    const to = arrow < 0 ? from : split(rule.slice(arrow + 2));
    for (const term of from) {
      const alternatives = new Set([...(out.get(term) ?? [term]), ...to]);
      if (arrow >= 0) alternatives.delete(term);
      out.set(term, [...alternatives]);
    }
  }
  return out;
}
