import type { KeywordQuery, QueryAlternative } from '../domain/filters';

// The engine clauses of a keyword search (contract §7.1) over index-mappings/opportunities.json.
// Matching runs on `search_text`, the copy of every searched field, so the words of a query may
// be found in different fields (golang in the title, stripe in the employer) and still all match;
// it is filter context (cached, unscored). Ranking (sort=relevance) adds scored `should` clauses
// over the fields themselves, with boosts: titles above specializations above organizations and
// taxonomy labels. The caller's text only ever reaches match / match_phrase as plain text, never
// as query-string syntax, and the clause count is bounded by q's 200 characters: one clause per
// phrase or alternative, one for all the plain words, one for all the excluded words.

export const SEARCH_FIELD = 'search_text';

/** Scored fields and their boosts (contract §7.2: title > specializations > organizations, labels). */
export const SCORED_FIELDS = [
  'title^3',
  'normalized_title.text^3',
  'specializations.text^2',
  'organization_names^1',
  'taxonomy_labels^1',
];

/** Words beyond this many still match; they just add nothing to the score (bounds the clauses). */
export const MAX_SCORED_WORDS = 32;

export type TextClause =
  | {
      match: Record<
        string,
        { query: string; operator: 'and' | 'or'; auto_generate_synonyms_phrase_query: false }
      >;
    }
  | { match_phrase: Record<string, { query: string }> }
  | {
      multi_match: {
        query: string;
        fields: string[];
        type: 'best_fields' | 'phrase';
        tie_breaker?: number;
        auto_generate_synonyms_phrase_query?: false;
      };
    }
  | { bool: { should: TextClause[]; minimum_should_match: 1 } };

// A multi-word synonym (swe → software engineer) must not turn the words into a phrase: words are
// ANDed wherever they stand, as the syntax says.
const words = (text: string, operator: 'and' | 'or'): TextClause => ({
  match: {
    [SEARCH_FIELD]: { query: text, operator, auto_generate_synonyms_phrase_query: false },
  },
});
const phrase = (text: string): TextClause => ({
  match_phrase: { [SEARCH_FIELD]: { query: text } },
});
const alternative = (a: QueryAlternative) => (a.phrase ? phrase(a.text) : words(a.text, 'and'));

/** Required clauses (filter context): all plain words, each phrase, each OR group. */
export function requiredClauses(q: KeywordQuery): TextClause[] {
  const out: TextClause[] = [];
  if (q.words.length > 0) out.push(words(q.words.join(' '), 'and'));
  for (const group of q.groups) {
    out.push(
      group.length === 1
        ? alternative(group[0] as QueryAlternative)
        : { bool: { should: group.map(alternative), minimum_should_match: 1 } },
    );
  }
  return out;
}

/**
 * Excluding clauses (must_not): each excluded word and each excluded phrase on its own. A word
 * excludes what it would match as a required word (every token of `python/ml`); words are never
 * analyzed together, or a multi-word synonym would join neighbours (`-software -engineer` read as
 * "software engineer" / swe) and the result would depend on their order.
 */
export function excludedClauses(q: KeywordQuery): TextClause[] {
  const out: TextClause[] = [];
  for (const word of q.excludedWords) out.push(words(word, 'and'));
  for (const text of q.excludedPhrases) out.push(phrase(text));
  return out;
}

const scored = (text: string, type: 'best_fields' | 'phrase'): TextClause => ({
  multi_match: {
    query: text,
    fields: [...SCORED_FIELDS],
    type,
    ...(type === 'best_fields'
      ? { tie_breaker: 0.3, auto_generate_synonyms_phrase_query: false as const }
      : {}),
  },
});

/** Scored clauses (should) for sort=relevance: each required term, in its best field. */
export function scoringClauses(q: KeywordQuery): TextClause[] {
  const out: TextClause[] = [];
  if (q.words.length > 0) {
    out.push(scored(q.words.slice(0, MAX_SCORED_WORDS).join(' '), 'best_fields'));
  }
  for (const group of q.groups) {
    for (const a of group) out.push(scored(a.text, a.phrase ? 'phrase' : 'best_fields'));
  }
  return out;
}
