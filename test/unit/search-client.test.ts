import { createSearchClient } from '../../src/search/client';

// The search client parses responses with JSON.parse alone (src/search/client.ts): no scan of the
// text for "__proto__" and "constructor" keys, which cost a third of a page's parse. What that
// scan guarded against cannot happen through JSON.parse: such keys become own properties, and no
// prototype changes.

const client = createSearchClient('http://127.0.0.1:1', 100);
const parse = (text: string) => client.serializer.deserialize(text) as Record<string, unknown>;

describe('search responses', () => {
  it('are parsed without the prototype-key scan, into plain data', () => {
    const text =
      '{"hits":{"hits":[{"_source":{"__proto__":{"polluted":1},' +
      '"constructor":{"prototype":{"polluted":2}}}}]}}';
    const body = parse(text);
    const source = (body.hits as { hits: { _source: object }[] }).hits[0]?._source ?? {};
    expect(Object.getPrototypeOf(source)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(source).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('still refuse what is not JSON', () => {
    expect(() => parse('{"hits":')).toThrow();
  });
});
