import { z } from 'zod';
import { PREVIEW_MAX_LIMIT, MAX_PAGE_SIZE, endpointParams, isListParam } from './catalog';
import type { Endpoint, ParamSpec } from './types';

// Zod schemas generated from the catalog. They DESCRIBE the parameters (OpenAPI document,
// decisions 4; MCP input schemas, decisions 9) and deliberately validate nothing: parseRestQuery
// and parseToolArgs reject bad values with the right code (invalid_filter vs validation_error),
// which a zod failure cannot express. `.meta()` keys are merged into z.toJSONSchema output.

const DECIMAL_PATTERN = '^\\d+(\\.\\d+)?$';
const TAXONOMY_ID_PATTERN = '[a-z0-9_]+';

/** The description, adjusted where the preview narrows a parameter (contract 4.1, decisions 5). */
export function describeParam(spec: ParamSpec, endpoint: Endpoint): string {
  if (endpoint !== 'preview') {
    return isListParam(spec, endpoint)
      ? `Comma-separated in REST. ${spec.description}`
      : spec.description;
  }
  if (spec.kind === 'cursor') {
    return 'Not supported: the preview has no pagination (a cursor gives invalid_filter).';
  }
  if (spec.kind === 'limit') {
    return `Number of opportunities, an integer from 1 to ${PREVIEW_MAX_LIMIT} (default ${PREVIEW_MAX_LIMIT}); above ${PREVIEW_MAX_LIMIT} gives page_size_exceeded.`;
  }
  if (spec.kind === 'enum_list' || spec.kind === 'taxonomy_list') {
    return `Preview: a single value, no comma list. ${spec.description}`;
  }
  if (spec.name === 'liveness_status') {
    return `${spec.description} The preview returns live opportunities only.`;
  }
  return spec.description;
}

const alternation = (values: readonly string[]) => `(${values.join('|')})`;

function restMeta(spec: ParamSpec, endpoint: Endpoint): Record<string, unknown> {
  const list = isListParam(spec, endpoint);
  const one = spec.values ? alternation(spec.values) : TAXONOMY_ID_PATTERN;
  switch (spec.kind) {
    case 'enum':
    case 'enum_list':
    case 'taxonomy':
    case 'taxonomy_list':
      if (!list && spec.values) return { enum: [...spec.values] };
      return { pattern: list ? `^${one}(,${one})*$` : `^${one}$` };
    case 'boolean':
      return { enum: ['true', 'false'] };
    case 'decimal':
      return { pattern: DECIMAL_PATTERN, examples: ['80', '80.5'] };
    case 'country':
      return { pattern: '^[A-Za-z]{2}$', examples: ['US'] };
    case 'date':
      return { examples: ['2026-01-31T09:00:00Z', '2026-01-31'] };
    case 'limit':
      return { pattern: '^[0-9]+$' };
    case 'integer':
      return { pattern: '^[0-9]+$', examples: [String(spec.max ?? 10)] };
    default:
      return {};
  }
}

function toolMeta(spec: ParamSpec, endpoint: Endpoint): Record<string, unknown> {
  const list = isListParam(spec, endpoint);
  const item = spec.values ? { type: 'string', enum: [...spec.values] } : { type: 'string' };
  if (list) return { type: 'array', items: item, minItems: 1 };
  switch (spec.kind) {
    case 'enum':
    case 'enum_list':
      return item;
    case 'boolean':
      return { type: 'boolean' };
    case 'decimal':
      return {
        anyOf: [
          { type: 'number', minimum: 0 },
          { type: 'string', pattern: DECIMAL_PATTERN },
        ],
      };
    case 'country':
      return { type: 'string', pattern: '^[A-Za-z]{2}$' };
    case 'date':
      return { type: 'string', examples: ['2026-01-31T09:00:00Z', '2026-01-31'] };
    case 'limit': {
      const maximum = endpoint === 'preview' ? PREVIEW_MAX_LIMIT : MAX_PAGE_SIZE;
      return { type: 'integer', minimum: 1, maximum };
    }
    case 'integer':
      return { type: 'integer', minimum: spec.min, maximum: spec.max };
    default:
      return { type: 'string' };
  }
}

/**
 * REST query parameters of an endpoint: optional strings (query strings are text) with
 * description and, where useful, enum/pattern. For the OpenAPI document.
 */
export function restQuerySchema(endpoint: Endpoint) {
  const shape: Record<string, z.ZodOptional<z.ZodString>> = {};
  for (const spec of endpointParams(endpoint, 'rest')) {
    const description = describeParam(spec, endpoint);
    shape[spec.name] = z
      .string()
      .optional()
      .meta({ description, ...restMeta(spec, endpoint) });
  }
  return z.object(shape);
}

/**
 * MCP tool arguments of an endpoint. Every field is z.unknown() so the SDK lets any value through
 * to parseToolArgs (a zod failure would be a bare-text SDK error, not our isError envelope,
 * decisions 9), and the object is loose so an unknown argument reaches the unknown_parameter
 * check instead of being stripped. The JSON Schema (via .meta) still declares the typed fields.
 */
export function toolArgsSchema(endpoint: Endpoint) {
  const shape: Record<string, z.ZodOptional<z.ZodUnknown>> = {};
  for (const spec of endpointParams(endpoint, 'tool')) {
    const description = describeParam(spec, endpoint).replace('Comma-separated in REST. ', '');
    shape[spec.name] = z
      .unknown()
      .optional()
      .meta({ description, ...toolMeta(spec, endpoint) });
  }
  return z.looseObject(shape).meta({ additionalProperties: false });
}
