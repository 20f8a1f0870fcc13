import { DEFAULT_GROUP_LIMIT, MAX_GROUP_DIMENSIONS, isFacetDimension } from '../facets';
import type { HistogramField, HistogramInterval, StatsName } from '../aggregates';
import { invalidFilter, quoteValue as quote, validationError } from '../errors';
import type { Coerced, ParamSpec, RequestOptions } from './types';

// The request options of contract §10.2, §10.3 (group_by, group_limit, include / include_new_count,
// max_new), after the adapter coerced their wire shape. They select nothing, so they stay out of
// the filter, its digest (the cursor) and applied_filters.

export const defaultOptions = (): RequestOptions => ({
  groupLimit: DEFAULT_GROUP_LIMIT,
  includeNewCount: false,
});

function strings(spec: ParamSpec, c: Coerced): string[] {
  const items = c.type === 'strings' ? c.items.map((i) => i.trim()) : [];
  if (items.length === 0 || items.some((i) => i === '')) {
    throw validationError(
      spec.name,
      'bad_format',
      `${spec.name} must not be empty or contain empty items.`,
    );
  }
  return items;
}

function groupBy(spec: ParamSpec, c: Coerced): string[] {
  const dims = strings(spec, c);
  const seen = new Set<string>();
  for (const dim of dims) {
    if (!isFacetDimension(dim)) {
      throw invalidFilter(
        spec.name,
        'unknown_value',
        `Unknown group_by dimension ${quote(dim)}; one of: ${(spec.values ?? []).join(', ')}.`,
      );
    }
    if (seen.has(dim)) {
      throw invalidFilter(spec.name, 'repeated', `group_by names ${quote(dim)} twice.`);
    }
    seen.add(dim);
  }
  if (dims.length > MAX_GROUP_DIMENSIONS) {
    throw invalidFilter(
      spec.name,
      'out_of_range',
      `group_by takes at most ${MAX_GROUP_DIMENSIONS} dimensions.`,
    );
  }
  return dims;
}

function include(spec: ParamSpec, c: Coerced): boolean {
  const seen = new Set<string>();
  for (const item of strings(spec, c)) {
    if (!spec.values?.includes(item)) {
      throw invalidFilter(
        spec.name,
        'unknown_value',
        `Unknown include ${quote(item)}; one of: ${(spec.values ?? []).join(', ')}.`,
      );
    }
    // As group_by refuses a dimension named twice: a repeat is a mistake, not a second request.
    if (seen.has(item)) {
      throw invalidFilter(spec.name, 'repeated', `include names ${quote(item)} twice.`);
    }
    seen.add(item);
  }
  return true;
}

/** contract §7.6: known top-level names only (400 invalid_filter); repeats and `id` are harmless. */
function fields(spec: ParamSpec, c: Coerced): string[] {
  const names = strings(spec, c);
  for (const name of names) {
    if (!spec.values?.includes(name)) {
      throw invalidFilter(
        spec.name,
        'unknown_value',
        `Unknown field ${quote(name)}; top-level fields of the record: ${(spec.values ?? []).join(', ')}.`,
      );
    }
  }
  return [...new Set(names)];
}

/** One value of a closed list (histogram, interval, stats): an unknown one is 400 (contract §10.4, §10.5). */
function oneOf<T extends string>(spec: ParamSpec, c: Coerced): T {
  const [item, ...more] = strings(spec, c);
  if (more.length > 0 || item === undefined) {
    throw invalidFilter(spec.name, 'not_a_list', `${spec.name} takes a single value.`);
  }
  if (!spec.values?.includes(item)) {
    throw invalidFilter(
      spec.name,
      'unknown_value',
      `Unknown ${spec.name} ${quote(item)}; one of: ${(spec.values ?? []).join(', ')}.`,
    );
  }
  return item as T;
}

function integer(spec: ParamSpec, c: Coerced): number {
  const min = spec.min ?? 0;
  const max = spec.max ?? Number.MAX_SAFE_INTEGER;
  if (c.type !== 'number' || !Number.isInteger(c.value) || c.value < min || c.value > max) {
    throw validationError(
      spec.name,
      'out_of_range',
      `${spec.name} must be an integer from ${min} to ${max}.`,
    );
  }
  return c.value;
}

/** Reads one option into `options`; 400 invalid_filter for bad values, 422 for bad formats. */
export function readOption(options: RequestOptions, spec: ParamSpec, c: Coerced): void {
  switch (spec.name) {
    case 'group_by':
      options.groupBy = groupBy(spec, c);
      return;
    case 'group_limit':
      options.groupLimit = integer(spec, c);
      return;
    case 'max_new':
      options.maxNew = integer(spec, c);
      return;
    case 'include':
      options.includeNewCount = include(spec, c);
      return;
    case 'fields':
      options.fields = fields(spec, c);
      return;
    case 'include_new_count':
      options.includeNewCount = c.type === 'boolean' && c.value;
      return;
    case 'histogram':
      options.histogram = oneOf<HistogramField>(spec, c);
      return;
    case 'interval':
      options.interval = oneOf<HistogramInterval>(spec, c);
      return;
    case 'stats':
      options.stats = oneOf<StatsName>(spec, c);
      return;
    default:
      throw new Error(`not an option: ${spec.name}`);
  }
}

/**
 * Rules between options, once each passed on its own (contract §10.3, §10.4): histogram and
 * interval come together. An interval alone would be silently ignored, and a histogram without one
 * has no obvious default (a day or a month are as likely as a week), so both are 400 naming
 * interval. A group_limit (`given`: the names the request holds) without group_by would be
 * silently ignored too.
 */
export function checkOptionRules(
  options: RequestOptions,
  given: { has(name: string): boolean },
): void {
  if (given.has('group_limit') && options.groupBy === undefined) {
    throw invalidFilter(
      'group_limit',
      'unsupported',
      'group_limit is only taken with group_by (the buckets it limits).',
    );
  }
  if (options.histogram !== undefined && options.interval === undefined) {
    throw invalidFilter(
      'interval',
      'missing',
      'histogram needs interval: day, week (from Monday) or month, in UTC.',
    );
  }
  if (options.interval !== undefined && options.histogram === undefined) {
    throw invalidFilter(
      'interval',
      'unsupported',
      'interval is only taken with histogram (published or first_seen).',
    );
  }
}
