import type { Opportunity } from '../domain/record';
import { regExpLiteral } from '../domain/regexp-literal';

// contract §9.5: the anonymous preview shows where a record came from, not how to reach it. No URL
// (the record's own two, its sources') and no source external id may appear anywhere in a preview
// record. Source text quotes them freely, and not as stored: a posting's text writes a URL without
// its scheme or in capitals, an evidence item holds an id as a number. So each is looked for in
// any case, a URL without its scheme, `www.` or trailing slashes, and an id as a whole token. An
// evidence item that mentions one is left out (it exists to quote the source); a free-text field
// that does (a title quoting the posting's URL) keeps its text with each mention replaced by `…`,
// which is never longer than what it replaces, so every bound of contract §2.7 still holds.

/** Ids shorter than this are not looked for inside text: `7` or `42` would cut every number. */
const MIN_ID_IN_TEXT = 4;

/** A URL as text may quote it: no scheme, no `www.`, no trailing slashes. */
const urlCore = (url: string) =>
  url
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/+$/, '');

/**
 * The forms text quotes a URL by: whole, without its `#fragment`, without its
 * `?query` (a posting's link with its tracking parameters is quoted as its path). A shorter form
 * that is only a host is not one: a host names a site, perhaps the employer's own, not a posting.
 */
function urlForms(url: string): string[] {
  const whole = urlCore(url);
  const noFragment = urlCore(whole.split('#')[0] ?? '');
  const noQuery = urlCore(noFragment.split('?')[0] ?? '');
  const cuts = [noFragment, noQuery].filter((form) => form !== whole && form.includes('/'));
  return [whole, ...cuts].filter((form) => form !== '');
}

/** The hyphens a text may write for `-` (U+2010 hyphen, U+2011 non-breaking hyphen). */
const HYPHENS = ['\u2010', '\u2011'];

/**
 * One character of a hidden value as source text may write it: itself, or, for punctuation,
 * percent-encoded (a share link's `u=https%3A%2F%2F…`), as a JSON escape (JSON-LD's `https:\/\/…`,
 * `\u0026`) or an HTML entity (`&amp;`, `&#x2F;`). The pattern is case-insensitive, so `%2f` and
 * `&#X2F;` are found too.
 */
function characterForms(c: string): string {
  if (/[\p{L}\p{N}]/u.test(c)) return regExpLiteral(c);
  const code = c.codePointAt(0) ?? 0;
  const hex = code.toString(16).padStart(2, '0');
  const texts = [c, `\\u${hex.padStart(4, '0')}`];
  if (code < 0x80) texts.push(`%${hex}`);
  if (c === '/') texts.push('\\/');
  if (c === '&') texts.push('&amp;');
  if (c === '-') texts.push(...HYPHENS);
  // Numeric entities may pad with zeros (`&#x002F;`, `&#047;`).
  const entities = [`&#x0*${hex};`, `&#0*${code};`];
  return `(?:${[...texts.map(regExpLiteral), ...entities].join('|')})`;
}

/** A hidden value as a pattern that finds it however its punctuation is escaped. */
const escapedLiteral = (value: string) => [...value].map(characterForms).join('');

/**
 * Not inside a longer name (`x.com` is not hidden inside `box.com`), unless what stands before it
 * is an escape that ends in a letter or digit: `%2Fcareers.example` and `\u002fcareers.example`
 * quote `careers.example`.
 */
const START = String.raw`(?:(?<=%[0-9a-f]{2}|\\u[0-9a-f]{4})|(?<![\p{L}\p{N}]))`;

/** Finds the hidden values of one record in a text (one regular expression of literals). */
class HiddenValues {
  private readonly pattern: RegExp | null;
  private readonly exact: Set<string>;

  constructor(record: Opportunity) {
    const urls = [
      record.canonical_url,
      record.application_url,
      ...record.sources.map((s) => s.url),
    ].filter((u): u is string => typeof u === 'string' && urlCore(u) !== '');
    const ids = record.sources
      .map((s) => s.external_id?.trim())
      .filter((id): id is string => typeof id === 'string' && id !== '');
    this.exact = new Set(ids.map((id) => id.toLowerCase()));
    const parts = [
      // Longest first: where two forms start at one place, the longer is replaced whole.
      ...[...new Set(urls.flatMap(urlForms))]
        .sort((a, b) => b.length - a.length)
        .map((u) => `${START}${escapedLiteral(u)}`),
      // A whole token: `2041` is not hidden inside `20417` or `v2041a`.
      ...ids
        .filter((id) => id.length >= MIN_ID_IN_TEXT)
        .map((id) => `${START}${escapedLiteral(id)}(?![\\p{L}\\p{N}])`),
    ];
    this.pattern = parts.length === 0 ? null : new RegExp(parts.join('|'), 'giu');
  }

  /** Whether an evidence value or excerpt quotes a hidden value (an id also as a number). */
  mentions(value: unknown): boolean {
    if (typeof value === 'number') return this.exact.has(String(value));
    if (typeof value !== 'string') return false;
    if (this.exact.has(value.trim().toLowerCase())) return true;
    if (!this.pattern) return false;
    this.pattern.lastIndex = 0;
    return this.pattern.test(value);
  }

  /** The text with each mention replaced by `…`. */
  remove<T extends string | null>(text: T): T {
    if (text === null || !this.pattern) return text;
    return text.replace(this.pattern, '…') as T;
  }
}

export function redactForPreview(record: Opportunity): Opportunity {
  const hidden = new HiddenValues(record);
  const text = <T extends string | null>(value: T) => hidden.remove(value);
  return {
    ...record,
    title: text(record.title),
    normalized_title: text(record.normalized_title),
    employer: text(record.employer),
    intermediary: text(record.intermediary),
    organizations: record.organizations.map((o) => ({ ...o, name: text(o.name) })),
    canonical_url: null,
    application_url: null,
    sources: record.sources.map((s) => ({ source: s.source }) as Opportunity['sources'][number]),
    specializations: record.specializations.map(text),
    location: {
      ...record.location,
      text: text(record.location.text),
      city: text(record.location.city),
      region: text(record.location.region),
    },
    duration: record.duration && { ...record.duration, text: text(record.duration.text) },
    evidence: record.evidence.filter(
      (e) => !hidden.mentions(e.value) && !hidden.mentions(e.excerpt),
    ),
  };
}
