import { AjvJsonSchemaValidator as AjvV2 } from '@modelcontextprotocol/client/validators/ajv';
import { AjvJsonSchemaValidator as AjvV1 } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { sharedValidator } from '../support/shared-validator';

// The MCP suites' clients validate every structuredContent through this: it must judge as the
// SDK's own validator does, and compile a schema once however many clients ask for it.

const SCHEMA = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
} as never;

describe.each([
  ['1.x', () => new AjvV1()],
  ['2.x', () => new AjvV2()],
])('the %s SDK validator, shared', (_name, make) => {
  it('accepts and refuses what the SDK validator does', () => {
    const inner = make();
    const shared = sharedValidator(inner);
    for (const data of [{ count: 3 }, { count: 'three' }, {}, { count: 1.5 }]) {
      const own = inner.getValidator(SCHEMA)(data);
      expect(shared.getValidator(SCHEMA)(data)).toEqual(own);
    }
    expect(shared.getValidator(SCHEMA)({ count: 'three' }).valid).toBe(false);
  });

  it('compiles one schema text once', () => {
    const inner = make();
    const compile = jest.spyOn(inner, 'getValidator');
    const shared = sharedValidator(inner);
    const first = shared.getValidator(SCHEMA);
    expect(shared.getValidator(JSON.parse(JSON.stringify(SCHEMA)) as never)).toBe(first);
    expect(compile).toHaveBeenCalledTimes(1);
  });
});
