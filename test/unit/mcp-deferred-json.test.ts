import type { CallToolResult } from '@modelcontextprotocol/server';
import { DeferredJson } from '../../src/mcp/deferred-json';

// The reply written with deferred tool results must be byte for byte the one the SDK transport
// would have serialized from the results themselves (src/mcp/deferred-json.ts).

const envelopes: object[] = [
  { data: [{ id: 'a', title: 'Caf\u00e9 "quoted" \\ </script> \u2028 \ud800' }], meta: { n: 1 } },
  { error: { code: 'validation_error', message: 'Unknown parameter "x\u2026".' } },
  { count: 0, meta: {} },
];

function toolResult(envelope: object, isError = false): { result: CallToolResult; json: string } {
  const json = JSON.stringify(envelope);
  const result: CallToolResult = {
    content: [{ type: 'text', text: json }],
    structuredContent: { ...envelope },
    ...(isError ? { isError: true } : {}),
  };
  return { result, json };
}

const reply = (results: CallToolResult[]) =>
  JSON.stringify(results.map((result, id) => ({ result, jsonrpc: '2.0', id: `id-${id}` })));

it('fills a batch of deferred results into exactly the JSON of the results', () => {
  const deferred = new DeferredJson();
  const made = envelopes.map((e, i) => toolResult(e, i === 1));
  const sent = made.map(({ result }) => deferred.defer(result));
  expect(deferred.pending).toBe(true);
  expect(reply(sent).length).toBeLessThan(reply(made.map((m) => m.result)).length);
  expect(deferred.fill(reply(sent)).bytes).toEqual(Buffer.from(reply(made.map((m) => m.result))));
});

it('leaves a result of another shape as it is, and a reply without placeholders unchanged', () => {
  const deferred = new DeferredJson();
  const { result } = toolResult(envelopes[2] as object);
  const other: CallToolResult = { ...result, content: [{ type: 'text', text: 'not the json' }] };
  expect(deferred.defer(other)).toBe(other);
  const bare: CallToolResult = { content: result.content };
  expect(deferred.defer(bare)).toBe(bare);
  expect(deferred.pending).toBe(false);
  expect(deferred.fill('{"id":"mcp-deferred-0"}').bytes.toString()).toBe('{"id":"mcp-deferred-0"}');
});

it('refuses a placeholder seen twice', () => {
  const deferred = new DeferredJson();
  const { result } = toolResult(envelopes[2] as object);
  const sent = JSON.stringify(deferred.defer(result));
  expect(() => deferred.fill(sent + sent)).toThrow(/repeated/);
});

it('fills texts held as UTF-8 pieces with their bytes', () => {
  const deferred = new DeferredJson();
  const made = envelopes.map((e) => toolResult(e));
  const sent = made.map(({ result, json }) => {
    const bytes = (text: string) => [text.slice(0, 3), Buffer.from(text.slice(3), 'utf8')];
    return deferred.defer(result, {
      structured: bytes(json),
      text: bytes(JSON.stringify(json)),
    });
  });
  expect(deferred.fill(reply(sent)).bytes).toEqual(Buffer.from(reply(made.map((m) => m.result))));
});
