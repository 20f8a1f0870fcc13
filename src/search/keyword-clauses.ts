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

/**
 * Words beyond this many, counted over the plain words and every phrase and alternative, still
 * match; they just add nothing to the score (bounds the clauses: a scored phrase is one per field,
 * each as long as the phrase and longer for words with synonyms, and a phrase of 58 `ml` went
 * past the engine's 1,024 clauses).
 */
export const MAX_SCORED_WORDS = 32;

/** What a match clause whose text analyzes to no token matches: nothing (the engine's default) or all. */
type ZeroTerms = { zero_terms_query?: 'all' };

export type TextClause =
  | {
      match: Record<
        string,
        {
          query: string;
          operator: 'and' | 'or';
          auto_generate_synonyms_phrase_query: false;
        } & ZeroTerms
      >;
    }
  | { match_phrase: Record<string, { query: string } & ZeroTerms> }
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
const words = (text: string, operator: 'and' | 'or', zero: ZeroTerms = {}): TextClause => ({
  match: {
    [SEARCH_FIELD]: { query: text, operator, auto_generate_synonyms_phrase_query: false, ...zero },
  },
});
const phrase = (text: string, zero: ZeroTerms = {}): TextClause => ({
  match_phrase: { [SEARCH_FIELD]: { query: text, ...zero } },
});
const alternative = (a: QueryAlternative, zero: ZeroTerms = {}) =>
  a.phrase ? phrase(a.text, zero) : words(a.text, 'and', zero);

/**
 * Text the analyzer surely keeps a token of: a letter or a digit survives every filter of the
 * mapping (it has no stop words). Text without one (`-`, `&`, `"`, `*`, an emoji) may analyze to
 * nothing, which only the engine can tell.
 */
const HAS_TOKEN = /[\p{L}\p{N}]/u;

/**
 * Required clauses (filter context): all plain words, each phrase, each OR group (whose sides
 * that analyze to nothing never match, so the group is the OR of the others).
 *
 * docs/search.md: a term the analyzer keeps nothing of (a lone `-`, a stray or empty `"`) adds no
 * condition beside other terms, and alone matches nothing. The engine's match of no token matches
 * nothing, which made such a term beside a phrase or an OR group (`"machine learning" -`,
 * `python developer "`) match nothing at all. Each term that may be empty matches all when empty
 * (`zero_terms_query: all`); when no term surely has a token and nothing is excluded, one of them
 * must still match something, so a query of punctuation alone keeps matching nothing.
 */
export function requiredClauses(q: KeywordQuery): TextClause[] {
  const terms: { text: string; clause: (zero?: ZeroTerms) => TextClause }[] = [];
  if (q.words.length > 0) {
    const text = q.words.join(' ');
    terms.push({ text, clause: (zero) => words(text, 'and', zero) });
  }
  for (const group of q.groups) {
    const [only] = group;
    if (group.length === 1 && only) {
      terms.push({ text: only.text, clause: (zero) => alternative(only, zero) });
    } else {
      const either: TextClause = {
        bool: { should: group.map((a) => alternative(a)), minimum_should_match: 1 },
      };
      terms.push({ text: group.map((a) => a.text).join(' '), clause: () => either });
    }
  }
  const mayBeEmpty = terms.filter((t) => !HAS_TOKEN.test(t.text));
  // Every term surely has a token, or there is one term and nothing excluded: as written.
  if (mayBeEmpty.length === 0) return terms.map((t) => t.clause());
  const excluding = q.excludedWords.length > 0 || q.excludedPhrases.length > 0;
  if (terms.length === 1 && !excluding) return terms.map((t) => t.clause());
  const out = terms.map((t) => t.clause(HAS_TOKEN.test(t.text) ? {} : { zero_terms_query: 'all' }));
  if (mayBeEmpty.length === terms.length && !excluding) {
    out.push({ bool: { should: terms.map((t) => t.clause()), minimum_should_match: 1 } });
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

/**
 * Scored clauses (should) for sort=relevance: each required term, in its best field, the first
 * MAX_SCORED_WORDS words of them (a phrase past the budget is scored by its first words; the
 * required clauses still match it whole).
 */
export function scoringClauses(q: KeywordQuery): TextClause[] {
  const out: TextClause[] = [];
  let budget = MAX_SCORED_WORDS;
  // Counted as the analyzer splits (on every run of what is neither a letter nor a digit, and
  // around every Han and kana character, each a word of its own: `ml/ml` and `ml中ml` are four
  // words, and 66 `ml/` or 44 `ml中` in one phrase were 503s); a text within the budget is scored
  // as written, one past it by its first words.
  const take = (text: string): string => {
    const words = text
      .replace(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu, ' $& ')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    const taken = Math.min(words.length, budget);
    budget -= taken;
    return taken === words.length ? text : words.slice(0, taken).join(' ');
  };
  if (q.words.length > 0) out.push(scored(take(q.words.join(' ')), 'best_fields'));
  for (const group of q.groups) {
    for (const a of group) {
      if (budget === 0) return out;
      out.push(scored(take(a.text), a.phrase ? 'phrase' : 'best_fields'));
    }
  }
  return out;
}
