import { invalidFilter, validationError } from '../errors';
import { decimalValue } from './decimal-bound';
import { checkNames, normalizeParams, refusePastedKeys } from './normalize';
import type { Coerce, Coerced, Endpoint, ParamSpec, ParseContext, ParsedRequest } from './types';

// MCP adapter: tool arguments are JSON, checked by the same rules and codes as REST (contract §21.6).
// Each argument must have its declared JSON type (lists are arrays of strings, remote a boolean,
// limit an integer number); rate_min/rate_max also take a decimal string, like the contract's
// "number >= 0, or numeric string matching a decimal pattern".

const DECIMAL = /^\d+(\.\d+)?$/;

function notAList(name: string): never {
  throw invalidFilter(name, 'not_a_list', `${name} takes a single value, not a list.`);
}

function wrongType(name: string, expected: string): never {
  throw validationError(name, 'bad_format', `${name} must be ${expected}.`);
}

function decimal({ name, bound }: ParamSpec, raw: unknown): Coerced {
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) {
    return { type: 'number', value: raw };
  }
  if (typeof raw === 'string') {
    if (raw.includes(',')) notAList(name);
    if (DECIMAL.test(raw)) {
      return { type: 'number', value: decimalValue(name, raw, bound) };
    }
  }
  return wrongType(name, 'a non-negative number (or a decimal string such as "80.5")');
}

const coerceJson: Coerce = (spec: ParamSpec, list: boolean, raw: unknown): Coerced => {
  const { name } = spec;
  if (list) {
    if (!Array.isArray(raw) || !raw.every((i): i is string => typeof i === 'string')) {
      return wrongType(name, 'an array of strings');
    }
    // An empty array is the JSON form of REST's empty value: 422 like `job_family=`.
    return { type: 'strings', items: raw.length === 0 ? [''] : raw };
  }
  if (Array.isArray(raw)) notAList(name);
  switch (spec.kind) {
    case 'boolean':
      return typeof raw === 'boolean'
        ? { type: 'boolean', value: raw }
        : wrongType(name, 'a boolean');
    case 'decimal':
      return decimal(spec, raw);
    case 'limit':
    case 'integer':
      return typeof raw === 'number' && Number.isInteger(raw)
        ? { type: 'number', value: raw }
        : wrongType(name, 'an integer');
    default:
      if (typeof raw !== 'string') return wrongType(name, 'a string');
      if (spec.kind !== 'cursor' && spec.kind !== 'query' && raw.includes(',')) notAList(name);
      return { type: 'strings', items: [raw] };
  }
};

/**
 * Parses and normalizes MCP tool arguments for one endpoint; throws ApiError like
 * parseRestQuery. Arguments that are undefined or null count as not given (agents often send
 * null for an unset optional argument).
 */
export function parseToolArgs(
  endpoint: Endpoint,
  args: Record<string, unknown>,
  ctx: ParseContext,
): ParsedRequest {
  const given = Object.entries(args).filter(([, v]) => v !== undefined && v !== null);
  refusePastedKeys(given);
  checkNames(
    endpoint,
    given.map(([k]) => k),
    'tool',
  );
  // JSON objects cannot repeat a name, so there is no `repeated` check here.
  return normalizeParams(endpoint, new Map(given), coerceJson, ctx, 'tool');
}
