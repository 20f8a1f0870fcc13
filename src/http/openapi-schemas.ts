import { z } from 'zod';

// Named components for the OpenAPI document (contract §5.8.1): every zod schema given here becomes
// `components.schemas.<name>`, and wherever one of them appears inside another (the record inside
// the list, detail and preview envelopes) it is emitted as a `$ref`, so generators produce one
// `Opportunity` type rather than anonymous copies. zod 4 converts a registry in one pass, using
// each entry's `id` for the reference.

type JsonSchema = Record<string, unknown>;

export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export function componentSchemas(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    uri: (id) => componentRef(id).$ref,
  });
  // $schema and $id belong to standalone documents; inside components they are noise (and an $id
  // would change how $refs resolve for strict validators).
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}
