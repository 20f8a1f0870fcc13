import { ConfigError, parseEnv } from '../../src/config';
import { layoutSettings } from '../../src/search/index-layout';
import { searchNodes } from '../../src/search/nodes';

// OPENSEARCH_URL may list several nodes; shards and replicas come from the settings.

describe('OPENSEARCH_URL', () => {
  it('takes one node or several, comma-separated', () => {
    expect(parseEnv({ OPENSEARCH_URL: 'http://127.0.0.1:9200' }).OPENSEARCH_URL).toBe(
      'http://127.0.0.1:9200',
    );
    const env = parseEnv({ OPENSEARCH_URL: 'http://10.0.0.1:9200, https://10.0.0.2:9200,' });
    expect(searchNodes(env.OPENSEARCH_URL ?? '')).toEqual([
      'http://10.0.0.1:9200',
      'https://10.0.0.2:9200',
    ]);
  });

  // The client throws on a node named twice, with a stack trace, at start-up.
  it.each([
    'not a url',
    'http://a:9200,ftp://b',
    ',',
    'javascript:alert(1)',
    'http://a:9200,http://a:9200/',
    'http://a:9200, HTTP://A:9200',
  ])('refuses %j, naming the variable', (value) => {
    expect(() => parseEnv({ OPENSEARCH_URL: value })).toThrow(ConfigError);
    expect(() => parseEnv({ OPENSEARCH_URL: value })).toThrow(/OPENSEARCH_URL/);
  });
});

describe('OPENSEARCH_SHARDS / OPENSEARCH_REPLICAS', () => {
  it('are unset by default and parsed as counts', () => {
    const defaults = parseEnv({});
    expect(defaults.OPENSEARCH_SHARDS).toBeUndefined();
    expect(defaults.OPENSEARCH_REPLICAS).toBeUndefined();
    expect(parseEnv({ OPENSEARCH_SHARDS: '3', OPENSEARCH_REPLICAS: '0' })).toMatchObject({
      OPENSEARCH_SHARDS: 3,
      OPENSEARCH_REPLICAS: 0,
    });
  });

  it.each([
    ['OPENSEARCH_SHARDS', '0'],
    ['OPENSEARCH_SHARDS', 'two'],
    ['OPENSEARCH_REPLICAS', '-1'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(name));
  });

  it('settings win, then the replaced index, then 1 and 0', () => {
    expect(layoutSettings({})).toEqual({ number_of_shards: 1, number_of_replicas: 0 });
    expect(layoutSettings({}, { shards: 3, replicas: 1 })).toEqual({
      number_of_shards: 3,
      number_of_replicas: 1,
    });
    expect(layoutSettings({ replicas: 2 }, { shards: 3, replicas: 1 })).toEqual({
      number_of_shards: 3,
      number_of_replicas: 2,
    });
  });
});
