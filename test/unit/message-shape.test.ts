import {
  MAX_MESSAGE_DEPTH,
  MAX_MESSAGE_NODES,
  withinMessageShape,
} from '../../src/mcp/message-shape';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
};

describe('withinMessageShape', () => {
  it('takes a real tool call', () => {
    const args = { q: 'python', level: ['senior', 'staff'], fields: ['title', 'rate'], limit: 25 };
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'x', arguments: args },
    };
    expect(withinMessageShape(call)).toBe(true);
  });

  it('counts every value, scalars and containers alike, up to the bound', () => {
    expect(withinMessageShape(Array.from({ length: MAX_MESSAGE_NODES - 1 }, () => 0))).toBe(true);
    expect(withinMessageShape(Array.from({ length: MAX_MESSAGE_NODES }, () => 0))).toBe(false);
  });

  it('bounds the depth, whatever the width', () => {
    expect(withinMessageShape(nested(MAX_MESSAGE_DEPTH))).toBe(true);
    expect(withinMessageShape(nested(MAX_MESSAGE_DEPTH + 1))).toBe(false);
    expect(withinMessageShape(nested(100_000))).toBe(false);
  });
});
