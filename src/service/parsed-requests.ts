import {
  parseRestQuery,
  parseToolArgs,
  type Endpoint,
  type ParseContext,
  type ParsedRequest,
} from '../domain/filters';
import type { Taxonomy } from '../domain/taxonomy';
import { Lru } from '../infra/lru';

// A dashboard asks the same count again and again: parsing and validating its
// query every time was a tenth of the count's own work. Parsing is a pure function of the
// endpoint, the raw parameters, the taxonomy and the page size bound (no clock, no caller), so
// its result is kept per process by those, frozen so that no request can change what the next
// one is handed. Only successes are kept: a refused query is parsed (and refused) every time.

/** The raw parameters: a REST query string's parameters or an MCP tool's JSON arguments. */
export type RawInput =
  | { from: 'rest'; query: Record<string, unknown> }
  | { from: 'tool'; args: Record<string, unknown> };

/** Most parsed requests kept; the least recently used goes first. */
const MAX_ENTRIES = 2000;
/** A key longer than this (a URL of many parameters) is parsed every time and not kept. */
const MAX_KEY_LENGTH = 2048;

export class ParsedRequests {
  private readonly entries: Lru<string, ParsedRequest>;
  private taxonomy: Taxonomy | null = null;

  constructor(maxEntries = MAX_ENTRIES) {
    this.entries = new Lru(maxEntries);
  }

  /** The parsed request, from the cache or parsed now; throws the parser's ApiError. */
  parse(endpoint: Endpoint, input: RawInput, ctx: ParseContext): ParsedRequest {
    // Both sources are JSON-shaped (query strings, parsed JSON), so their JSON text is faithful.
    const raw = JSON.stringify(input.from === 'rest' ? input.query : input.args);
    const key = `${endpoint} ${input.from} ${ctx.maxPageSize ?? ''} ${raw}`;
    if (ctx.taxonomy !== this.taxonomy) {
      // A new taxonomy (a reload) can change what any query means.
      this.entries.clear();
      this.taxonomy = ctx.taxonomy;
    }
    const hit = this.entries.get(key);
    if (hit) return hit;
    const parsed =
      input.from === 'rest'
        ? parseRestQuery(endpoint, input.query, ctx)
        : parseToolArgs(endpoint, input.args, ctx);
    if (key.length <= MAX_KEY_LENGTH) {
      this.entries.set(key, deepFreeze(parsed));
    }
    return parsed;
  }

  /** Entries kept (tests). */
  get size(): number {
    return this.entries.size;
  }
}

/** Freezes `value` and everything it holds (plain data). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
