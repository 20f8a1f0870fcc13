import { createSearchClient, onLivingNode, QUICK_FAILURE_MS } from '../../src/search/client';

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

// contract §20.3: a connection refused or reset at once is tried again (another node of a cluster
// answers); one reset after seconds of silence is not, or a request waited three deadlines (a
// faults audit measured 14 s at OPENSEARCH_TIMEOUT_MS=5000).
describe('onLivingNode', () => {
  const connectionError = () => Object.assign(new Error('reset'), { name: 'ConnectionError' });

  it('tries a quick connection failure again, at most three times', async () => {
    let calls = 0;
    const flaky = () => (++calls < 3 ? Promise.reject(connectionError()) : Promise.resolve('ok'));
    await expect(onLivingNode(flaky, () => 0)).resolves.toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      onLivingNode(
        () => (++calls, Promise.reject(connectionError())),
        () => 0,
      ),
    ).rejects.toThrow('reset');
    expect(calls).toBe(3);
  });

  it('does not try again a connection that failed after the quick bound', async () => {
    let clock = 0;
    let calls = 0;
    const slow = () => {
      calls++;
      clock += QUICK_FAILURE_MS; // the reset comes as late as that, or later
      return Promise.reject(connectionError());
    };
    await expect(onLivingNode(slow, () => clock)).rejects.toThrow('reset');
    expect(calls).toBe(1);
  });

  it('never tries a timeout again', async () => {
    let calls = 0;
    const timeout = () => (
      calls++,
      Promise.reject(Object.assign(new Error('t'), { name: 'TimeoutError' }))
    );
    await expect(onLivingNode(timeout, () => 0)).rejects.toThrow('t');
    expect(calls).toBe(1);
  });
});
