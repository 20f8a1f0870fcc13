import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ErrorEnvelope } from '../domain/envelopes';

// JSON Schemas of the tools, generated from the zod schemas that also describe REST (contract §21.5):
// toolArgsSchema for the filters, the envelopes of domain/envelopes.ts for the results.

/** What tools/list carries: an object schema at the root (the SDK client's Tool type insists). */
export type ToolJsonSchema = Tool['inputSchema'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Makes a generated schema portable to the validators clients actually run:
 * - `$schema` goes: the SDK client compiles schemas with Ajv's default (draft-07) instance, and a
 *   `$schema` nested in anyOf means nothing there; the keywords we emit read the same in draft-07
 *   and 2020-12 (the MCP default dialect).
 * - `format: "uri"` goes: the service accepts a URL when the WHATWG parser does (z.url()), which is
 *   laxer than RFC 3986 (a non-ASCII path, a space, `[`); Ajv's `uri` format would then make the
 *   client reject a genuine record and throw instead of returning it.
 */
function portable(node: Json): Json {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'format' && value === 'uri') continue;
    out[key] = portable(value);
  }
  return out;
}

function generate(schema: z.ZodType, io: 'input' | 'output'): { [key: string]: Json } {
  const json = portable(z.toJSONSchema(schema, { io }) as Json);
  if (json === null || typeof json !== 'object' || Array.isArray(json) || json.type !== 'object') {
    throw new Error('tool schemas must be JSON objects of type object');
  }
  return json;
}

/** The declared arguments of a tool: precise for agents; the service still checks every value. */
export function toolInputSchema(args: z.ZodType): ToolJsonSchema {
  return { ...generate(args, 'input'), type: 'object' } as ToolJsonSchema;
}

const ERROR_SCHEMA = generate(ErrorEnvelope, 'output');

/**
 * contract §21.7: clients validate structuredContent against outputSchema even when isError is set,
 * so each tool admits its result envelope or the error envelope. `type: "object"` stays at the
 * root because the client's Tool schema requires it.
 */
export function toolOutputSchema(result: z.ZodType): ToolJsonSchema {
  return { type: 'object', anyOf: [generate(result, 'output'), ERROR_SCHEMA] };
}
