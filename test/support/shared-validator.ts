// Both SDKs' clients validate every structuredContent against its tool's outputSchema, as agents'
// clients do, and compile those schemas with an Ajv of their own at each tools/list: about 0.2 s of
// CPU per connection, and the suites open hundreds. Their clients here share one validator per SDK
// and one compiled validator per schema text, so each schema is compiled once per test file and
// checked exactly as the SDK's own validator checks it.

/** What both SDKs ask of a validator (their `jsonSchemaValidator` option; the same shape). */
interface SchemaValidator {
  getValidator<T>(schema: never): (input: unknown) => Validated<T>;
}
type Validated<T> =
  | { valid: true; data: T; errorMessage: undefined }
  | { valid: false; data: undefined; errorMessage: string };

export function sharedValidator<V extends SchemaValidator>(inner: V): Pick<V, 'getValidator'> {
  const compiled = new Map<string, (input: unknown) => Validated<unknown>>();
  const shared: SchemaValidator = {
    getValidator<T>(schema: never) {
      const text = JSON.stringify(schema);
      let validator = compiled.get(text);
      if (!validator) compiled.set(text, (validator = inner.getValidator<unknown>(schema)));
      return validator as (input: unknown) => Validated<T>;
    },
  };
  return shared as Pick<V, 'getValidator'>;
}
