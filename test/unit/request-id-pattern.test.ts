import { requestIdHeader } from '../../src/http/openapi-parts';

// The documented pattern of X-Request-ID refuses what the middleware refuses (middleware/request-id.ts):
// a schema-valid id is never a 422.
const pattern = new RegExp(requestIdHeader.schema.pattern);

it.each([
  ['a uuid', '6a7c8e90-96e4-4637-8698-ca95d794f5cf', true],
  ['the whole set', 'run-7.batch_3:page', true],
  ['128 characters', 'x'.repeat(128), true],
  ['the word oppk in an id', 'oppk-run-1', true],
  ['129 characters', 'x'.repeat(129), false],
  ['a space', 'bad id', false],
  ['a key', 'oppk_abcdefghijklmnopqrstuvwxyzABCDEF0123', false],
  ['a short key shape', 'oppk_short', false],
  ['a key in upper case', 'OPPK_abcdefghijklmnopqrstuvwxyzABCDEF0123', false],
  ['a key inside an id', `run:oppk_${'a'.repeat(32)}:1`, false],
  ['part of a key inside an id', 'trace-oppk_abc123', false],
  ['in any case', 'x.OppK_1', false],
  ['oppk_ before a character outside base62', 'run-oppk_.1', true],
])('%s: %s', (_label, id, valid) => {
  expect(pattern.test(id)).toBe(valid);
});
