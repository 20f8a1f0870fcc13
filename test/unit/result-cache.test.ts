import { ResultCache } from '../../src/search/result-cache';

// The per-process search cache: an entry is only ever served under the
// generation it was loaded in, and nothing is cached when the generation is unknown.

function setup(maxEntries = 100, maxAgeMs = 60_000) {
  const source = { generation: '0.1' as string | null, current: () => source.generation };
  const cache = new ResultCache<number>(source, { maxEntries, maxAgeMs });
  let loads = 0;
  const load = (value: number) => () => {
    loads++;
    return Promise.resolve(value);
  };
  return { source, cache, load, loads: () => loads };
}

it('serves a repeated key from memory within one generation', async () => {
  const { cache, load, loads } = setup();
  expect(await cache.get('a', load(1))).toBe(1);
  expect(await cache.get('a', load(2))).toBe(1);
  expect(loads()).toBe(1);
});

it('a new generation never sees the previous one entries', async () => {
  const { source, cache, load } = setup();
  await cache.get('a', load(1));
  source.generation = '1.1';
  expect(await cache.get('a', load(2))).toBe(2);
  expect(await cache.get('a', load(3))).toBe(2);
});

it('caches nothing while the generation is unknown', async () => {
  const { source, cache, load, loads } = setup();
  source.generation = null;
  expect(await cache.get('a', load(1))).toBe(1);
  expect(await cache.get('a', load(2))).toBe(2);
  expect(loads()).toBe(2);
});

it('a value loaded while the generation changed is not kept', async () => {
  const { source, cache, load } = setup();
  await cache.get('a', () => {
    source.generation = '0.2'; // a sync finished while the search ran
    return Promise.resolve(1);
  });
  expect(await cache.get('a', load(2))).toBe(2);
});

it('keeps at most maxEntries, least recently used going first', async () => {
  const { cache, load, loads } = setup(2);
  await cache.get('a', load(1));
  await cache.get('b', load(2));
  await cache.get('a', load(0)); // a is now the most recent
  await cache.get('c', load(3)); // evicts b
  expect(loads()).toBe(3);
  expect(await cache.get('a', load(9))).toBe(1);
  expect(await cache.get('b', load(9))).toBe(9);
});

it('an entry older than maxAgeMs is loaded again', async () => {
  const { cache, load } = setup(10, 0);
  await cache.get('a', load(1));
  expect(await cache.get('a', load(2))).toBe(2);
});

describe("admit: 'repeated' (pages after a cursor)", () => {
  const repeated = { admit: 'repeated' as const };

  it('stores a key the second time it is loaded, and serves it from then on', async () => {
    const { cache, load, loads } = setup();
    expect(await cache.get('p', load(1), repeated)).toBe(1);
    expect(await cache.get('p', load(2), repeated)).toBe(2);
    expect(await cache.get('p', load(3), repeated)).toBe(2);
    expect(loads()).toBe(2);
  });

  it('a walk of keys asked once each does not push out what is asked again', async () => {
    const { cache, load, loads } = setup(2);
    await cache.get('first', load(1));
    await cache.get('other', load(2));
    for (let i = 0; i < 50; i++) await cache.get(`walk-${i}`, load(100 + i), repeated);
    expect(loads()).toBe(52);
    expect(await cache.get('first', load(9))).toBe(1);
    expect(await cache.get('other', load(9))).toBe(2);
    expect(loads()).toBe(52);
  });

  it('remembers a bounded number of keys asked once', async () => {
    // maxEntries 2: 8 keys asked once are remembered; the ninth pushes the first out.
    const { cache, load, loads } = setup(2);
    for (let i = 0; i < 9; i++) await cache.get(`k${i}`, load(i), repeated);
    await cache.get('k0', load(10), repeated); // forgotten: asked once again
    await cache.get('k8', load(11), repeated); // remembered: stored now
    expect(await cache.get('k8', load(12), repeated)).toBe(11);
    expect(loads()).toBe(11);
  });
});
