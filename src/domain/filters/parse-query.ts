import { invalidFilter, validationError } from '../errors';
import { decimalValue } from './decimal-bound';
import { checkNames, normalizeParams, refusePastedKeys } from './normalize';
import type { Coerce, Coerced, Endpoint, ParamSpec, ParseContext, ParsedRequest } from './types';

// REST adapter: query-string values are text (contract §1.8, §6). Express gives a string,
// an array when a name is repeated, or (with the extended parser) an object.

const DECIMAL = /^\d+(\.\d+)?$/; // plain non-negative decimal: -1 and 1e3 are 422 (contract §6.4)
const INTEGER = /^-?\d+$/;

function notAList(name: string): never {
  throw invalidFilter(
    name,
    'not_a_list',
    `${name} takes a single value, not a comma-separated list.`,
  );
}

const coerceText: Coerce = (spec: ParamSpec, list: boolean, raw: unknown): Coerced => {
  const { name } = spec;
  if (typeof raw !== 'string') {
    throw validationError(name, 'bad_format', `${name} must be a single text value.`);
  }
  if (list) return { type: 'strings', items: raw.split(',') };
  // A cursor is opaque; every other single-valued parameter rejects a comma list (contract §6.2).
  if (spec.kind !== 'cursor' && spec.kind !== 'query' && raw.includes(',')) notAList(name);
  // Spaces around a value are not part of it, for a number or a boolean as for text (contract §6.4).
  const value = raw.trim();
  switch (spec.kind) {
    case 'boolean':
      if (value !== 'true' && value !== 'false') {
        throw validationError(name, 'bad_format', `${name} must be true or false.`);
      }
      return { type: 'boolean', value: value === 'true' };
    case 'decimal':
      if (!DECIMAL.test(value)) {
        throw validationError(
          name,
          'bad_format',
          `${name} must be a non-negative decimal such as 80 or 80.5.`,
        );
      }
      return { type: 'number', value: decimalValue(name, value, spec.bound) };
    case 'limit':
    case 'integer':
      if (!INTEGER.test(value)) {
        throw validationError(name, 'bad_format', `${name} must be an integer.`);
      }
      return { type: 'number', value: Number(value) };
    default:
      return { type: 'strings', items: [raw] };
  }
};

/**
 * Parses and normalizes a REST query (`req.query`) for one endpoint; throws ApiError
 * (invalid_filter, validation_error, page_size_exceeded) for the first problem found.
 */
export function parseRestQuery(
  endpoint: Endpoint,
  query: Record<string, unknown>,
  ctx: ParseContext,
): ParsedRequest {
  const names = Object.keys(query);
  // A key as the value says so whatever the name (`api_key=oppk_…`, `foo=oppk_…`), not only
  // under a name the endpoint reads (contract §6.14).
  refusePastedKeys(Object.entries(query));
  checkNames(endpoint, names, 'rest');
  for (const name of names) {
    const value = query[name];
    if (Array.isArray(value) && value.length > 1) {
      throw invalidFilter(name, 'repeated', `Parameter ${name} is given more than once.`);
    }
  }
  return normalizeParams(endpoint, new Map(Object.entries(query)), coerceText, ctx, 'rest');
}
