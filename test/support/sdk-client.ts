import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { sharedValidator } from './shared-validator';

/**
 * The 1.x SDK clients' validator: the SDK's own Ajv, one per test file, each output schema compiled
 * once (shared-validator.ts).
 */
export const V1_VALIDATOR = sharedValidator(new AjvJsonSchemaValidator());

/** A 1.x SDK client (what most agents run today) for the tests that drive one directly. */
export function sdkClient(name: string): Client {
  return new Client({ name, version: '1.0.0' }, { jsonSchemaValidator: V1_VALIDATOR });
}
