import { invalidFilter } from '../errors';

// The `q` syntax of contract §7.3, read into a small tree that the search layer turns into engine
// clauses (search/keyword-clauses.ts) and the in-memory index evaluates (search/memory-text.ts).
// Nothing of the caller's text ever reaches the engine as query syntax: words and phrases go to
// match / match_phrase queries as plain text, so no input can be an engine syntax error.
//
// - words are ANDed; `"a phrase"` matches the words adjacent and in order;
// - `-word` and `-"a phrase"` exclude;
// - `a OR b` (upper-case OR, between two positive terms) matches either;
// - nothing else is an operator: every other character is text for the analyzer. A quote opens a
//   phrase only at the start of a term (after a space or a `-`); an unclosed quote runs to the end.
//   An `OR` that has no positive term on both sides is the word "or". A lone `-` is text (the
//   analyzer keeps nothing of it, so as a required word it matches nothing).
// - a query of exclusions only matches every record except the excluded ones.

export const MAX_QUERY_LENGTH = 200;

export const QUERY_SYNTAX =
  'Syntax: words are ANDed (senior golang); "a phrase" matches the words adjacent and in order; ' +
  '-word or -"a phrase" excludes; a OR b (upper-case OR) matches either. Nothing else is an ' +
  'operator: any other punctuation is text (c++, node.js). Case- and accent-insensitive, English ' +
  'stemming (developer matches developers) and technology synonyms (js = javascript, k8s = ' +
  'kubernetes, golang = go, swe = software engineer...). Only exclusions: every record but those.';

/** One alternative of a required group: a single word or a phrase. */
export interface QueryAlternative {
  phrase: boolean;
  text: string;
}

export interface KeywordQuery {
  /** Plain required words; analyzed together, every resulting token required. */
  words: string[];
  /** Required groups: a phrase alone, or the alternatives of an OR chain (any one matches). */
  groups: QueryAlternative[][];
  /** A record holding any of these words is excluded. */
  excludedWords: string[];
  /** A record holding any of these phrases is excluded. */
  excludedPhrases: string[];
}

type Token = { kind: 'or' } | { kind: 'term'; negated: boolean; phrase: boolean; text: string };

const isSpace = (ch: string) => /\s/u.test(ch);

/** Splits the text into terms, quoted phrases and OR markers, in one linear pass. */
function tokenize(q: string): Token[] {
  const chars = [...q];
  const out: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    if (isSpace(chars[i] as string)) {
      i++;
      continue;
    }
    const negated = chars[i] === '-' && i + 1 < chars.length && !isSpace(chars[i + 1] as string);
    const start = negated ? i + 1 : i;
    if (chars[start] === '"') {
      let end = start + 1;
      while (end < chars.length && chars[end] !== '"') end++;
      out.push({ kind: 'term', negated, phrase: true, text: chars.slice(start + 1, end).join('') });
      i = end + 1;
      continue;
    }
    let end = start;
    while (end < chars.length && !isSpace(chars[end] as string)) end++;
    const text = chars.slice(start, end).join('');
    if (!negated && text === 'OR') out.push({ kind: 'or' });
    else out.push({ kind: 'term', negated, phrase: false, text });
    i = end;
  }
  return out;
}

const isPositive = (t: Token | undefined) => t?.kind === 'term' && !t.negated;

/** Reads a trimmed, length-checked q (normalizeQuery) into its tree. */
export function parseKeywordQuery(q: string): KeywordQuery {
  const tokens = tokenize(q);
  // An OR between two positive terms is the operator; any other OR is the word "or".
  const resolved: Token[] = tokens.map((t, i) =>
    t.kind === 'or' && !(isPositive(tokens[i - 1]) && isPositive(tokens[i + 1]))
      ? { kind: 'term', negated: false, phrase: false, text: 'OR' }
      : t,
  );
  const query: KeywordQuery = { words: [], groups: [], excludedWords: [], excludedPhrases: [] };
  let chain: QueryAlternative[] = [];
  const flush = () => {
    const [only] = chain;
    if (chain.length === 1 && only && !only.phrase) query.words.push(only.text);
    else if (chain.length > 0) query.groups.push(chain);
    chain = [];
  };
  for (let i = 0; i < resolved.length; i++) {
    const t = resolved[i] as Token;
    if (t.kind === 'or') continue; // an operator: the next term joins the chain
    if (t.negated) {
      flush();
      if (t.phrase) query.excludedPhrases.push(t.text);
      else query.excludedWords.push(t.text);
      continue;
    }
    // A positive term joins the chain only when an OR operator precedes it.
    if (resolved[i - 1]?.kind !== 'or') flush();
    chain.push({ phrase: t.phrase, text: t.text });
  }
  flush();
  return query;
}

/**
 * contract §7.4: 1 to 200 characters (code points) after trimming, else 400 invalid_filter on q.
 * Returns the trimmed text, which is what the filter, the cursor digest and applied_filters hold
 * (an MCP argument's lone surrogate is already U+FFFD: domain/well-formed.ts).
 */
export function normalizeQuery(raw: string): string {
  const trimmed = raw.trim();
  const length = [...trimmed].length;
  if (length === 0) {
    throw invalidFilter('q', 'out_of_range', 'q must hold at least one non-space character.');
  }
  if (length > MAX_QUERY_LENGTH) {
    throw invalidFilter(
      'q',
      'out_of_range',
      `q must be at most ${MAX_QUERY_LENGTH} characters after trimming.`,
    );
  }
  return trimmed;
}
