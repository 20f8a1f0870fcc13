import type { KeywordQuery } from '../domain/filters';
import type { OpportunityDocument } from './documents';
import { KEPT_WORDS } from './index-definition';
import { repositorySynonyms, synonymMap } from './synonyms';

// The keyword search of contract §7 for the in-memory index (fast suite): a crude copy of the
// engine's analysis (index-mappings/opportunities.json) that agrees with it on plain cases, which
// test/integration/index-contract.test.ts checks: word tokens (letters, digits, inner dots and
// apostrophes: node.js stays one token as with the standard tokenizer), possessives dropped, lower
// case, accents folded, plurals of words longer than four letters stemmed (the engine runs KStem
// before that, which does more; the fixture avoids the difference), and the repository's synonyms
// expanded on the query side.

const TOKEN = /[\p{L}\p{N}_]+(?:[.'’][\p{L}\p{N}_]+)*/gu;
const FOLDED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  // The script_accents character filter's final sigma (script-accents.ts).
  ς: 'σ',
};

// Compatibility decomposition as well as accents: ASCII folding turns a ligature (ﬁ) and a
// full-width letter (ｑ) into their ASCII letters, so `ﬁle` and `file` are one word in the engine.
const fold = (token: string) =>
  token
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøđłıς]/g, (ch) => FOLDED[ch] ?? ch);

/**
 * The go_compounds character filter: "Go-Live" and "Go-to-Market" keep their "go" in one token
 * (go_live, go_to market), so the language's synonym (golang, go) does not find them.
 */
const GO_COMPOUNDS = /\b(go)-(?=(?:live|to-market)\b)/gi;

/**
 * The cplusplus, csharp and fsharp character filters: C++, C# and F# are terms of their own (the
 * standard tokenizer would leave each as a bare "c" or "f", so q=c++ matched C and C#), when not
 * inside a longer word (abc++ stays abc).
 */
const SYMBOL_TERMS: readonly [RegExp, string][] = [
  [/(?<![\p{L}\p{N}_+#])c\+\+(?![\p{L}_+#])/giu, 'cplusplus '],
  [/(?<![\p{L}\p{N}_+#])c#(?![\p{L}_+#])/giu, 'csharp '],
  [/(?<![\p{L}\p{N}_+#])f#(?![\p{L}_+#])/giu, 'fsharp '],
];

/**
 * The combining_marks character filter: an accent written as its own combining character
 * (decomposed: e + U+0301) is dropped before tokenizing, as ASCII folding drops a precomposed é,
 * so both spellings of Café are cafe. The standard tokenizer would otherwise keep the mark in the
 * word, where nothing folds it.
 */
const COMBINING_MARKS = /[\u0300-\u036F]+/g;

/**
 * The word_colons character filter: a colon is a space. The standard tokenizer keeps one between
 * letters inside a word (Unicode's MidLetter), so "Contract:Python" was one token that neither
 * word found.
 */
const COLONS = /:/g;

/** The character filters of both analyzers, in their order. */
function charFiltered(text: string): string {
  let out = text.replace(COMBINING_MARKS, '').replace(GO_COMPOUNDS, '$1_');
  for (const [pattern, term] of SYMBOL_TERMS) out = out.replace(pattern, term);
  return out.replace(COLONS, ' ');
}

/** Tokens before stemming: what the synonym rules are matched against. */
function preTokens(text: string): string[] {
  return [...charFiltered(text).matchAll(TOKEN)].map((m) =>
    fold(m[0].replace(/['’][sS]$/, '').toLowerCase()),
  );
}

/**
 * Plural stripping (Lucene's English minimal stemmer), as the engine's english_plurals filter does
 * it: not on words of four letters or fewer (its short_words marker), where an s is as often part
 * of a name (ios, aws, news) as a plural, nor on the kept words (rails is not rail).
 */
export function stem(token: string): string {
  const n = token.length;
  if (n <= 4 || !token.endsWith('s') || KEPT_WORDS.has(token)) return token;
  const before = token[n - 2];
  if (before === 'u' || before === 's') return token;
  if (before === 'e') {
    const third = token[n - 3];
    if (n > 3 && third === 'i' && token[n - 4] !== 'a' && token[n - 4] !== 'e') {
      return `${token.slice(0, n - 3)}y`;
    }
    if (third === 'i' || third === 'a' || third === 'o' || third === 'e') return token;
  }
  return token.slice(0, -1);
}

/** The indexed tokens of a text. */
export const analyze = (text: string): string[] => preTokens(text).map(stem);

/** One position of a query: the token sequences any of which satisfies it. */
type Unit = string[][];

let rules: { key: string[]; alternatives: string[][] }[] | undefined;

/** The synonym rules by their pre-stem token sequences, longest first. */
function synonymRules() {
  rules ??= [...synonymMap(repositorySynonyms())]
    .map(([key, alts]) => ({
      key: preTokens(key),
      alternatives: alts.map((a) => preTokens(a).map(stem)),
    }))
    .filter((r) => r.key.length > 0)
    .sort((a, b) => b.key.length - a.key.length);
  return rules;
}

/** A query text as units: each token, or a span a synonym rule rewrites into its alternatives. */
function units(text: string): Unit[] {
  const tokens = preTokens(text);
  const out: Unit[] = [];
  for (let i = 0; i < tokens.length;) {
    const rule = synonymRules().find((r) => r.key.every((t, k) => tokens[i + k] === t));
    if (rule) {
      out.push(rule.alternatives);
      i += rule.key.length;
    } else {
      out.push([[stem(tokens[i] as string)]]);
      i++;
    }
  }
  return out;
}

/** A document's searched values, each as its tokens, with the boost of its field. */
interface Field {
  boost: number;
  values: string[][];
  tokens: ReadonlySet<string>;
}

/** A document as the matcher reads it: its fields, and all their values and tokens together. */
interface Analysed {
  fields: Field[];
  values: string[][];
  tokens: ReadonlySet<string>;
}

/**
 * Analysed once per document: a suite asks many queries of the same records, and analysing every
 * text again for each was most of the in-memory index's time. Documents are never changed in
 * place (a new version is a new object), so a document's analysis never goes stale.
 */
const analysedDocs = new WeakMap<OpportunityDocument, Analysed>();

function analysed(doc: OpportunityDocument): Analysed {
  let found = analysedDocs.get(doc);
  if (!found) {
    const of = (boost: number, texts: readonly string[]): Field => {
      const values = texts.map(analyze);
      return { boost, values, tokens: new Set(values.flat()) };
    };
    const fields = [
      of(3, [doc.title, doc.normalized_title]),
      of(2, doc.specializations),
      of(1, [...doc.organization_names, ...doc.taxonomy_labels]),
    ];
    const values = fields.flatMap((f) => f.values);
    found = { fields, values, tokens: new Set(values.flat()) };
    analysedDocs.set(doc, found);
  }
  return found;
}

const hasAll = (tokens: ReadonlySet<string>, seq: readonly string[]) =>
  seq.every((t) => tokens.has(t));
const unitIn = (tokens: ReadonlySet<string>, unit: Unit) => unit.some((s) => hasAll(tokens, s));

/** The token sequences a phrase stands for (its synonym variants), at most 64. */
function phraseVariants(text: string): string[][] {
  let variants: string[][] = [[]];
  for (const unit of units(text)) {
    variants = variants.flatMap((v) => unit.map((alt) => [...v, ...alt])).slice(0, 64);
  }
  return variants.filter((v) => v.length > 0);
}

const contains = (value: readonly string[], seq: readonly string[]) =>
  value.some((_, i) => seq.every((t, k) => value[i + k] === t));

/** A matcher and scorer of one keyword query over documents. */
export class TextMatcher {
  private readonly words: Unit[];
  private readonly groups: { phrase: boolean; units: Unit[]; variants: string[][] }[][];
  /** Each excluded word's units: it excludes a record holding all of them (keyword-clauses.ts). */
  private readonly excludedWords: Unit[][];
  private readonly excludedPhrases: string[][][];

  constructor(q: KeywordQuery) {
    this.words = q.words.length > 0 ? units(q.words.join(' ')) : [];
    const groups = q.groups.map((g) =>
      g.map((a) => ({
        phrase: a.phrase,
        units: a.phrase ? [] : units(a.text),
        variants: a.phrase ? phraseVariants(a.text) : [],
      })),
    );
    this.excludedWords = q.excludedWords.map((word) => units(word));
    this.excludedPhrases = q.excludedPhrases.map(phraseVariants);
    // As in the engine (keyword-clauses.ts): a term that analyzes to nothing (a lone `-`, an empty
    // phrase) adds no condition beside other terms or an exclusion; the terms all such, and nothing
    // excluded, match nothing. An OR group's empty sides never match.
    const empty = (a: { phrase: boolean; units: Unit[]; variants: string[][] }) =>
      a.phrase ? a.variants.length === 0 : a.units.length === 0;
    const emptyWords = q.words.length > 0 && this.words.length === 0;
    const emptyGroups = groups.filter((g) => g.length === 1 && g.every(empty));
    this.groups = groups.filter((g) => !emptyGroups.includes(g));
    const terms = (q.words.length > 0 ? 1 : 0) + q.groups.length;
    const emptyTerms = (emptyWords ? 1 : 0) + emptyGroups.length;
    const excluding = q.excludedWords.length > 0 || q.excludedPhrases.length > 0;
    this.nothing = terms > 0 && emptyTerms === terms && !excluding;
  }

  private readonly nothing: boolean;

  matches(doc: OpportunityDocument): boolean {
    if (this.nothing) return false;
    const { values: all, tokens } = analysed(doc);
    const phraseIn = (variants: string[][]) =>
      variants.some((seq) => all.some((value) => contains(value, seq)));
    if (!this.words.every((u) => unitIn(tokens, u))) return false;
    const alternativeIn = (a: { phrase: boolean; units: Unit[]; variants: string[][] }) =>
      a.phrase
        ? phraseIn(a.variants)
        : a.units.length > 0 && a.units.every((u) => unitIn(tokens, u));
    if (!this.groups.every((g) => g.some(alternativeIn))) return false;
    const excludes = (word: Unit[]) => word.length > 0 && word.every((u) => unitIn(tokens, u));
    if (this.excludedWords.some(excludes)) return false;
    return !this.excludedPhrases.some(phraseIn);
  }

  /** A crude relevance: each required unit or phrase scores the boost of its best field. */
  score(doc: OpportunityDocument): number {
    const byField = analysed(doc).fields;
    const best = (hit: (f: Field) => boolean) =>
      Math.max(0, ...byField.filter(hit).map((f) => f.boost));
    let total = 0;
    for (const u of this.words) total += best((f) => unitIn(f.tokens, u));
    for (const group of this.groups) {
      for (const a of group) {
        total += a.phrase
          ? best((f) => a.variants.some((seq) => f.values.some((v) => contains(v, seq))))
          : a.units.reduce((sum, u) => sum + best((f) => unitIn(f.tokens, u)), 0);
      }
    }
    return total;
  }
}
