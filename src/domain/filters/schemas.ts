import { z } from 'zod';
import {
  MAX_PAGE_SIZE,
  MAX_TEXT_LENGTH,
  PARAMS_BY_NAME,
  PREVIEW_MAX_LIMIT,
  endpointParams,
  isListParam,
} from './catalog';
import { ISO_COUNTRY_CODES } from './countries';
import { MAX_WHOLE_DIGITS } from './decimal-bound';
import { DATE_PARAM_PATTERN } from './dates';
import { MAX_QUERY_LENGTH } from './keyword-query';
import type { Endpoint, ParamName, ParamSpec } from './types';

// Zod schemas generated from the catalog. They DESCRIBE the parameters (OpenAPI document,
// contract §5.8.1; MCP input schemas, §21.5) and are never used to validate: parseRestQuery
// and parseToolArgs reject bad values with the right code (invalid_filter vs validation_error),
// which a zod failure cannot express. `.meta()` keys are merged into z.toJSONSchema output.

// At most MAX_WHOLE_DIGITS before the point, as the service checks (decimal-bound.ts).
const DECIMAL_PATTERN = `^\\d{1,${MAX_WHOLE_DIGITS}}(\\.\\d+)?$`;

/** The description, adjusted where the preview narrows a parameter (contract §9.2). */
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

// The REST parameters, typed as an OpenAPI client or gateway sees them: integers as
// integers, comma lists as arrays (the document adds style: form, explode: false to every array),
// enums as `enum`, dates and free text as patterns that admit exactly what the service admits.
// test/integration/openapi-verdicts.test.ts holds each schema and the service to the same verdict.

/** Free text: not blank (the service trims), no comma (a comma list where one value is allowed
 * is 400 not_a_list), at most MAX_TEXT_LENGTH characters. */
const TEXT_PATTERN = '^[^,]*[^,\\s][^,]*$';
const TAXONOMY_ID_PATTERN = '^[a-z0-9_]+$';
const QUERY_PATTERN = '^\\S(?:[\\s\\S]*\\S)?$';
/** contract §7.3: examples that teach the q syntax (words, exclusion, phrases, OR). */
const QUERY_EXAMPLES = ['senior golang k8s -intern', '"data engineer" OR "machine learning"'];

export const dateParam = () =>
  z
    .string()
    .meta({ pattern: DATE_PARAM_PATTERN, examples: ['2026-01-31T09:00:00Z', '2026-01-31'] });
export const cursorParam = () => z.string().min(1);
/**
 * Keyword search q (contract §7.4): 1 to 200 characters (code points, as maxLength counts them)
 * once trimmed; commas are text. The pattern leaves surrounding whitespace out (the service
 * trims it: a leniency, like free text's).
 */
const queryParam = () =>
  z
    .string()
    .max(MAX_QUERY_LENGTH)
    .meta({
      minLength: 1,
      pattern: QUERY_PATTERN,
      examples: [...QUERY_EXAMPLES],
    });
const limitParam = (max: number) => z.int().min(1).max(max);
// `enum` through meta rather than z.enum, which keys values by name and so moves `1099` first:
// the document lists a vocabulary in its own order, as the MCP schemas do.
const enumOf = (values: Iterable<string>) => z.string().meta({ enum: [...values] });

function restItem(spec: ParamSpec): z.ZodType {
  if (spec.values) return enumOf(spec.values);
  return z.string().meta({ pattern: TAXONOMY_ID_PATTERN });
}

/** The typed schema of one REST parameter on one endpoint. */
export function restParamSchema(spec: ParamSpec, endpoint: Endpoint): z.ZodType {
  switch (spec.kind) {
    case 'enum':
    case 'enum_list':
    case 'taxonomy':
    case 'taxonomy_list': {
      if (!isListParam(spec, endpoint)) return restItem(spec);
      const list = z.array(restItem(spec)).min(1);
      // group_by: at most two dimensions, none repeated (contract §10.2); include: each value once.
      return spec.maxItems === undefined
        ? list
        : list.max(spec.maxItems).meta({ uniqueItems: true });
    }
    case 'boolean':
      return z.boolean();
    case 'decimal':
      return z.string().meta({ pattern: DECIMAL_PATTERN, examples: ['80', '80.5'] });
    case 'country':
      // Upper case as the service echoes it; the service also takes lower case (contract §6.11).
      return enumOf(ISO_COUNTRY_CODES);
    case 'date':
      return dateParam();
    case 'cursor':
      return cursorParam();
    case 'limit':
      return limitParam(endpoint === 'preview' ? PREVIEW_MAX_LIMIT : MAX_PAGE_SIZE);
    case 'integer':
      return z
        .int()
        .min(spec.min ?? 0)
        .max(spec.max ?? Number.MAX_SAFE_INTEGER);
    case 'text':
      return z.string().max(MAX_TEXT_LENGTH).meta({ minLength: 1, pattern: TEXT_PATTERN });
    case 'query':
      return queryParam();
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
    case 'query':
      return {
        type: 'string',
        minLength: 1,
        maxLength: MAX_QUERY_LENGTH,
        examples: QUERY_EXAMPLES,
      };
    default:
      return { type: 'string' };
  }
}

/**
 * The typed schema of a catalog parameter on an endpoint outside the catalog's three (the change
 * feed's query, domain/changes-envelope.ts), so a parameter shared with list is typed once.
 */
export function catalogParamSchema(name: ParamName, endpoint: Endpoint = 'list'): z.ZodType {
  const spec = PARAMS_BY_NAME.get(name);
  if (!spec) throw new Error(`no catalog parameter ${name}`);
  return restParamSchema(spec, endpoint);
}

/**
 * REST query parameters of an endpoint, typed (restParamSchema) and described. For the OpenAPI
 * document; validation stays with parseRestQuery, which picks the error code.
 */
export function restQuerySchema(endpoint: Endpoint) {
  const shape: Record<string, z.ZodOptional> = {};
  for (const spec of endpointParams(endpoint, 'rest')) {
    const description = describeParam(spec, endpoint);
    shape[spec.name] = restParamSchema(spec, endpoint).optional().meta({ description });
  }
  return z.object(shape);
}

/**
 * MCP tool arguments of an endpoint. Every field is z.unknown() so the SDK lets any value through
 * to parseToolArgs (a zod failure would be a bare-text SDK error, not our isError envelope,
 * contract §21.6), and the object is loose so an unknown argument reaches the unknown_parameter
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
