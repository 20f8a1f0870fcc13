import fc from 'fast-check';
import {
  MAX_MESSAGE_DEPTH,
  MAX_MESSAGE_NODES,
  rawWithinMessageShape,
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

// The raw check runs before JSON.parse (a megabyte of `[` held the event loop 150-200 ms in the
// parse): what it refuses, the parsed check must refuse too, and it must catch depth and width.
describe('rawWithinMessageShape', () => {
  const raw = (value: unknown) => rawWithinMessageShape(Buffer.from(JSON.stringify(value)));

  it('takes a real tool call, brackets and commas inside strings included', () => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'x', arguments: { q: '[[[[,,,,"\\]]]', fields: ['title'] } },
    };
    expect(raw(call)).toBe(true);
    expect(rawWithinMessageShape(Buffer.from(`{"q":"${'[,'.repeat(50_000)}"}`))).toBe(true);
  });

  it('refuses a megabyte of brackets at the first level too deep', () => {
    expect(rawWithinMessageShape(Buffer.from('['.repeat(500_000) + ']'.repeat(500_000)))).toBe(
      false,
    );
    // nested(n) is n - 1 containers around a scalar: brackets deeper than the bound hold a
    // container past it.
    expect(raw(nested(MAX_MESSAGE_DEPTH + 1))).toBe(true);
    expect(raw(nested(MAX_MESSAGE_DEPTH + 2))).toBe(false);
  });

  it('refuses a flat list wider than the parsed check allows', () => {
    expect(raw(Array.from({ length: MAX_MESSAGE_NODES + 1 }, () => 0))).toBe(false);
  });

  it('never refuses what the parsed check takes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 40 }), (value) => {
        if (withinMessageShape(value)) expect(raw(value)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
