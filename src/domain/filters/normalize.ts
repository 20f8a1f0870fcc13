import {
  ApiError,
  invalidFilter,
  malformedCursor,
  pastedKey,
  quoteValue as quote,
  unknownParameter,
  validationError,
} from '../errors';
import { holdsKey } from '../key-shape';
import {
  DEFAULT_LIST_LIMIT,
  MAX_PAGE_SIZE,
  MAX_TEXT_LENGTH,
  OPTION_PARAMS,
  PARAMS_BY_NAME,
  PREVIEW_MAX_LIMIT,
  acceptsParam,
  endpointParams,
  isListKind,
  isListParam,
} from './catalog';
import { normalizeCountry } from './countries';
import { codeCase } from '../index-case';
import { parseDateParam } from './dates';
import type {
  Coerce,
  Coerced,
  Endpoint,
  Filter,
  FilterValue,
  ParamSpec,
  ParseContext,
  ParsedRequest,
  Surface,
} from './types';
import { checkOptionRules, defaultOptions, readOption } from './options';
import { normalizeQuery } from './keyword-query';

// The one normalizer behind both adapters (REST query and MCP tool arguments), so the two apply
// identical rules and codes (contract §6, §9.2, §21.6). The adapters only differ in how a raw value is
// coerced (text vs JSON types) and in what counts as a repeated parameter.

/**
 * contract §6.14: a key pasted as the value of a known parameter or argument (`level=oppk_…`,
 * `{"q": "oppk_…"}`) is refused as a key in the query string is, before a message or
 * applied_filters could show it back or the engine receive it. Not a cursor: our own signed text,
 * never shown, which base64url could make hold `oppk_` and 32 letters by chance (a key pasted
 * there fails its signature like any text).
 */
export function refusePastedKeys(entries: Iterable<[string, unknown]>): void {
  for (const [name, value] of entries) {
    if (name !== 'cursor' && holdsKey(value)) throw pastedKey(name);
  }
}

/**
 * Name-level checks, before any value is read: an unknown name (which includes `api_key` and
 * `key`: a key in the URL is just an unknown parameter, contract §6.14) → unknown_parameter, its
 * value never echoed; a catalog parameter this endpoint does not take (any non-preview filter or
 * a cursor in preview, cursor/limit in count) → unsupported.
 */
export function checkNames(
  endpoint: Endpoint,
  names: readonly string[],
  surface: Surface = 'rest',
): void {
  for (const name of names) {
    const known = PARAMS_BY_NAME.get(name);
    // A parameter of the other adapter (REST include, MCP include_new_count) is unknown here.
    if (!known || (known.surface ?? surface) !== surface) {
      throw unknownParameter(name);
    }
  }
  for (const name of names) {
    const spec = PARAMS_BY_NAME.get(name);
    if (spec && !acceptsParam(endpoint, spec.name)) {
      const why =
        endpoint === 'preview' && name === 'cursor'
          ? 'the preview has no pagination'
          : `the ${endpoint} endpoint does not take it`;
      throw invalidFilter(name, 'unsupported', `Parameter ${name} is not supported: ${why}.`);
    }
  }
}

/**
 * For the endpoints without a filter catalog (detail, usage, the taxonomy, /mcp): a key pasted as
 * any value is refused saying so, as on list (contract §6.14); then every name but `allowed` is
 * unknown, refused like an unknown filter (contract §6.3), so a typo such as `feilds`, or a key
 * pasted into the URL as a name, is named instead of ignored.
 */
export function checkOnlyParams(
  params: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
): void {
  refusePastedKeys(Object.entries(params));
  const unknown = Object.keys(params).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw unknownParameter(unknown);
}

/**
 * Whether `text` has more than `max` characters counted as code points, as JSON Schema's
 * maxLength counts them (the OpenAPI document declares it), not UTF-16 units: an emoji is one.
 */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false; // never more code points than UTF-16 units
  if (text.length > 2 * max) return true; // never fewer than half
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: skip the low half.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return true;
  }
  return false;
}

function checkItem(spec: ParamSpec, item: string, ctx: ParseContext): string {
  const { name } = spec;
  switch (spec.kind) {
    case 'enum':
    case 'enum_list':
      // Ids are lower-case snake_case and matched exactly: `Senior` is an unknown value.
      if (!spec.values?.includes(item)) {
        const allowed = (spec.values ?? []).join(', ');
        throw invalidFilter(
          name,
          'unknown_value',
          `Unknown ${name} ${quote(item)}; one of: ${allowed}.`,
        );
      }
      return item;
    case 'taxonomy':
    case 'taxonomy_list':
      // An id at another level (a class given as job_family) is as unknown as a label (contract §6.3).
      if (!spec.level || !ctx.taxonomy.isLevel(item, spec.level)) {
        throw invalidFilter(
          name,
          'unknown_value',
          `${quote(item)} is not a ${spec.level ?? ''} id of the occupational taxonomy (GET /v1/taxonomy/occupations).`,
        );
      }
      return item;
    case 'country': {
      const code = normalizeCountry(item);
      if (!code) {
        throw invalidFilter(
          name,
          'unknown_value',
          `${quote(item)} is not an ISO 3166-1 alpha-2 country code.`,
        );
      }
      return code;
    }
    case 'date': {
      // published_before is the one upper bound; the rest are lower bounds (`_after`, `_since`).
      const millis = parseDateParam(item, name === 'published_before' ? 'down' : 'up');
      if (millis === undefined) {
        throw validationError(
          name,
          'bad_format',
          `${name} must be an ISO 8601 date-time with Z or an offset, or YYYY-MM-DD.`,
        );
      }
      return new Date(millis).toISOString();
    }
    case 'cursor':
      return item; // opaque; CursorCodec.decode judges it (malformed_cursor)
    default:
      if (longerThan(item, MAX_TEXT_LENGTH)) {
        throw validationError(
          name,
          'out_of_range',
          `${name} must be at most ${MAX_TEXT_LENGTH} characters.`,
        );
      }
      // An ISO 4217 code is upper case, as country's ISO code is: applied_filters echoes USD.
      return name === 'currency' ? codeCase(item) : item;
  }
}

function normalizeStrings(spec: ParamSpec, list: boolean, items: string[], ctx: ParseContext) {
  // contract §7.4: an empty or over-long q is 400 invalid_filter, not a format error.
  if (spec.kind === 'query') return normalizeQuery(items.join(','));
  // A cursor is an opaque token, taken as sent: one spelled otherwise, spaces included, is refused.
  const trimmed = spec.kind === 'cursor' ? items : items.map((i) => i.trim());
  // contract §8.4: any cursor problem, an empty one included, is 400 malformed_cursor.
  if (spec.kind === 'cursor' && trimmed.some((i) => i.trim() === '')) {
    throw malformedCursor();
  }
  // Format (422) for every item before any value check (400).
  if (trimmed.some((i) => i === '')) {
    throw validationError(
      spec.name,
      'bad_format',
      `${spec.name} must not be empty or contain empty items.`,
    );
  }
  const checked = trimmed.map((i) => checkItem(spec, i, ctx));
  return list ? [...new Set(checked)] : checked[0];
}

function pageSize(endpoint: Endpoint, given: number | undefined, ctx: ParseContext): number {
  if (endpoint === 'count') return 0;
  const accountMax = Math.min(MAX_PAGE_SIZE, ctx.maxPageSize ?? MAX_PAGE_SIZE);
  const max = endpoint === 'preview' ? PREVIEW_MAX_LIMIT : accountMax;
  // An account maximum below the default lowers the default rather than failing every request.
  const fallback = endpoint === 'preview' ? PREVIEW_MAX_LIMIT : Math.min(DEFAULT_LIST_LIMIT, max);
  if (given === undefined) return fallback;
  if (given > max) {
    throw new ApiError(
      'page_size_exceeded',
      endpoint === 'preview'
        ? `limit must be at most ${PREVIEW_MAX_LIMIT} in the preview.`
        : `limit must be at most ${max}, the account's maximum page size.`,
      {
        parameter: 'limit',
        reason: 'out_of_range',
      },
    );
  }
  return given;
}

function valueOf(
  spec: ParamSpec,
  list: boolean,
  c: Coerced,
  ctx: ParseContext,
): FilterValue | string {
  if (c.type === 'strings') return normalizeStrings(spec, list, c.items, ctx);
  if (spec.kind === 'limit' && c.type === 'number' && c.value < 1) {
    throw validationError('limit', 'out_of_range', 'limit must be an integer of at least 1.');
  }
  // A decimal too large for a double becomes Infinity, which JSON would turn into null: no bound.
  if (c.type === 'number' && !Number.isFinite(c.value)) {
    throw validationError(spec.name, 'out_of_range', `${spec.name} is too large.`);
  }
  return c.value;
}

/** Cross-parameter rules, after every parameter passed on its own (contract §6). */
function checkCrossRules(filter: Filter, ctx: ParseContext): void {
  // contract §7.5: relevance is the score of q; without q there is nothing to score.
  if (filter.sort === 'relevance' && filter.q === undefined) {
    throw invalidFilter('sort', 'unsupported', 'sort=relevance needs q (a keyword search).');
  }
  const families = filter.job_family;
  if (!families || !filter.job_subfamily) return;
  for (const sub of filter.job_subfamily) {
    const family = ctx.taxonomy.ancestorAt(sub, 'family');
    if (!family || !families.includes(family)) {
      throw invalidFilter(
        'job_subfamily',
        'out_of_range',
        `job_subfamily ${quote(sub)} belongs to family ${quote(family ?? '')}, which is not among job_family.`,
      );
    }
  }
}

/**
 * Reads the given parameters in catalog order. `raw` holds only names the endpoint accepts
 * (checkNames ran first) with their adapter-specific raw values.
 */
export function normalizeParams(
  endpoint: Endpoint,
  raw: ReadonlyMap<string, unknown>,
  coerce: Coerce,
  ctx: ParseContext,
  surface: Surface = 'rest',
): ParsedRequest {
  const values: Record<string, FilterValue> = {};
  const options = defaultOptions();
  let cursor: string | undefined;
  let limit: number | undefined;
  for (const spec of endpointParams(endpoint, surface)) {
    if (!raw.has(spec.name)) continue;
    const list = isListParam(spec, endpoint);
    if (OPTION_PARAMS.has(spec.name)) {
      readOption(options, spec, coerce(spec, list, raw.get(spec.name)));
      continue;
    }
    const value = valueOf(spec, list, coerce(spec, list, raw.get(spec.name)), ctx);
    if (spec.kind === 'cursor' && typeof value === 'string') cursor = value;
    else if (spec.kind === 'limit' && typeof value === 'number') limit = value;
    // Preview takes one value for list parameters but the filter keeps the list shape.
    else values[spec.name] = typeof value === 'string' && isListKind(spec) ? [value] : value;
  }
  // Safe: keys are catalog filter names and each value was produced for its own kind above.
  const filter = values as Filter;
  checkCrossRules(filter, ctx);
  checkOptionRules(options, raw);
  const size = pageSize(endpoint, limit, ctx);
  return {
    filter,
    limit: size,
    appliedFilters: structuredClone(filter), // a copy: the service may extend `filter`
    options,
    ...(cursor === undefined ? {} : { cursor }),
  };
}
