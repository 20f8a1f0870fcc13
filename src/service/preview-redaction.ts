import type { Opportunity } from '../domain/record';

// contract §9.5: the anonymous preview shows where a record came from, not how to reach it. No URL
// (the record's own two, its sources') and no source external id may appear anywhere in a preview
// record. Source text quotes them freely, and not as stored: a posting's text writes a URL without
// its scheme or in capitals, an evidence item holds an id as a number. So each is looked for in
// any case, a URL without its scheme, `www.` or trailing slashes, and an id as a whole token. An
// evidence item that mentions one is left out (it exists to quote the source); a free-text field
// that does (a title quoting the posting's URL) keeps its text with each mention replaced by `…`,
// which is never longer than what it replaces, so every bound of contract §2.7 still holds.
//
// Texts are searched decoded, not with patterns of every escaped form: one regular expression of
// each hidden value's escaped spellings grew with the number and length of the record's URLs, and
// one record at its bounds (50 sources with URLs of 2,083 characters) held the event loop for 50 s
// on every anonymous preview that returned it. Decoding a text once and looking for plain
// literals in it is linear in the text.

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

/**
 * The escapes source text writes punctuation with, each read as the character it stands for:
 * percent-encoded (a share link's `u=https%3A%2F%2F…`), JSON (JSON-LD's `https:\/\/…`, `\u0026`),
 * HTML entities (`&amp;`, `&#x2F;`, `&#047;`, zero-padded or not), in any case.
 */
const ESCAPES: readonly (readonly [RegExp, (m: RegExpExecArray) => string | undefined])[] = [
  [/%([0-9a-f]{2})/iy, (m) => asciiOf(parseInt(m[1] ?? '', 16))],
  [/\\u([0-9a-f]{4})/iy, (m) => String.fromCharCode(parseInt(m[1] ?? '', 16))],
  [/\\\//y, () => '/'],
  [/&amp;/iy, () => '&'],
  [/&#x0*([0-9a-f]{1,6});/iy, (m) => codePointOf(parseInt(m[1] ?? '', 16))],
  [/&#0*([0-9]{1,7});/y, (m) => codePointOf(parseInt(m[1] ?? '', 10))],
];
const asciiOf = (code: number) => (code < 0x80 ? String.fromCharCode(code) : undefined);
const codePointOf = (code: number) => (code <= 0x10ffff ? String.fromCodePoint(code) : undefined);

/**
 * A dash a text may write for `-`: any dash punctuation (hyphen, en and em dash, the small,
 * full-width, vertical, Armenian and Hebrew forms: scraped text and word processors turn
 * `ABCD-9981` into `ABCD–9981`), and the minus sign.
 */
const DASH = /^[\p{Pd}\u2212]$/u;

/**
 * An invisible format character (zero-width space and joiners, soft hyphen, word joiner, byte
 * order mark, direction marks): read as nothing, so `ABCD-\u200B9981`, which shows and copies as
 * the id, is found as it.
 */
const INVISIBLE = /^\p{Cf}$/u;

/** A text read for searching: escapes decoded, hyphens plain, lower case; each unit's origin kept. */
interface Decoded {
  text: string;
  /** The span of the original text each unit of `text` was read from. */
  from: number[];
  to: number[];
  /** Whether that unit came from an escape (`%41` before a name does not join it to a word). */
  escaped: boolean[];
}

function decode(original: string): Decoded {
  const units: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const escaped: boolean[] = [];
  let i = 0;
  while (i < original.length) {
    let read: string | undefined;
    let end = i;
    const c = original[i];
    if (c === '%' || c === '\\' || c === '&') {
      for (const [pattern, meaning] of ESCAPES) {
        pattern.lastIndex = i;
        const match = pattern.exec(original);
        read = match ? meaning(match) : undefined;
        if (read !== undefined) {
          end = pattern.lastIndex;
          break;
        }
      }
    }
    const fromEscape = read !== undefined;
    if (read === undefined) {
      read = String.fromCodePoint(original.codePointAt(i) ?? 0);
      end = i + read.length;
    }
    // Unit by UTF-16 unit, not by code point: indexOf counts units, and an emoji is two.
    const lower = INVISIBLE.test(read) ? '' : (DASH.test(read) ? '-' : read).toLowerCase();
    for (let k = 0; k < lower.length; k++) {
      units.push(lower.charAt(k));
      from.push(i);
      to.push(end);
      escaped.push(fromEscape);
    }
    i = end;
  }
  return { text: units.join(''), from, to, escaped };
}

const WORD = /[\p{L}\p{N}]/u;

/** One hidden value as looked for: its decoded text, and whether it must be a whole token. */
interface Hidden {
  text: string;
  token: boolean;
}

/** Finds the hidden values of one record in a text. */
class HiddenValues {
  private readonly hidden: Hidden[];
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
    // As texts are read: an id of under four characters is only found as a whole value, and
    // `A–1` (an en dash) is that value as much as `A-1` is.
    this.exact = new Set(ids.map((id) => decode(id).text));
    const seen = new Set<string>();
    this.hidden = [
      ...urls.flatMap(urlForms).map((form) => ({ text: decode(form).text, token: false })),
      // A whole token: `2041` is not hidden inside `20417` or `v2041a`.
      ...ids
        .filter((id) => id.length >= MIN_ID_IN_TEXT)
        .map((id) => ({ text: decode(id).text, token: true })),
    ].filter(({ text, token }) => {
      const key = `${token ? 't' : 'u'}${text}`;
      if (text === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /**
   * The mentions in a decoded text, as [start, end) of its units: not inside a longer name (`x.com`
   * is not hidden inside `box.com`) unless an escape stands before it, and where two start at one
   * place, the longer.
   */
  private spans(decoded: Decoded, first = false): [number, number][] {
    const { text } = decoded;
    const found: [number, number][] = [];
    // Where a mention may start (not inside a longer name), and from each place the next such
    // one: read once per text, for every hidden value.
    const word = Array.from({ length: text.length }, (_, i) => WORD.test(text.charAt(i)));
    const startsAt = (at: number) => at === 0 || decoded.escaped[at - 1] === true || !word[at - 1];
    const nextStart = new Array<number>(text.length + 1).fill(text.length);
    for (let i = text.length - 1; i >= 0; i--)
      nextStart[i] = startsAt(i) ? i : (nextStart[i + 1] ?? i);
    for (const { text: value, token } of this.hidden) {
      // A value that begins with a letter or digit starts only where a mention may: past a failed
      // place, the search resumes at the next such one, not one unit on (an id of 200 a's in 500
      // a's of text was tried at every one of them).
      const wordFirst = WORD.test(value.charAt(0));
      const resume = (at: number) => (wordFirst ? (nextStart[at + 1] ?? at + 1) : at + 1);
      for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, resume(at))) {
        const end = at + value.length;
        const after = text[end];
        const ends = !token || after === undefined || !WORD.test(after);
        if (!startsAt(at) || !ends) continue;
        found.push([at, end]);
        if (first) return found;
      }
    }
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const kept: [number, number][] = [];
    for (const span of found) {
      const last = kept[kept.length - 1];
      if (!last || span[0] >= last[1]) kept.push(span);
    }
    return kept;
  }

  /** Whether an evidence item's text quotes a hidden value (an id also as a number). */
  mentions(value: unknown): boolean {
    if (typeof value === 'number') return this.exact.has(String(value));
    if (typeof value !== 'string') return false;
    const decoded = decode(value);
    if (this.exact.has(decoded.text.trim())) return true;
    return this.hidden.length > 0 && this.spans(decoded, true).length > 0;
  }

  /** The text with each mention replaced by `…`. */
  remove<T extends string | null>(text: T): T {
    if (text === null || this.hidden.length === 0) return text;
    const decoded = decode(text);
    const spans = this.spans(decoded);
    if (spans.length === 0) return text;
    let out = '';
    let done = 0;
    for (const [start, end] of spans) {
      const from = decoded.from[start] ?? done;
      out += `${text.slice(done, from)}…`;
      done = decoded.to[end - 1] ?? from;
    }
    return `${out}${text.slice(done)}` as T;
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
      region_code: text(record.location.region_code),
    },
    duration: record.duration && { ...record.duration, text: text(record.duration.text) },
    // Every text of an item: its field and source name too, not only what it quotes.
    evidence: record.evidence.filter(
      (e) =>
        !hidden.mentions(e.value) &&
        !hidden.mentions(e.excerpt) &&
        !hidden.mentions(e.field) &&
        !hidden.mentions(e.source),
    ),
  };
}
