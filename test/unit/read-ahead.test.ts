import { ResultCache } from '../../src/search/result-cache';

// Pages read ahead of a cursor walk (ResultCache.take, OpenSearchIndex.readAhead): each is served
// once, under the index generation it was read in only, and nothing is kept while the generation
// is unknown or changes during the search.

type Loaded = Array<{ key: string; value: string }>;

function setup(maxPages = 100, maxAgeMs = 60_000) {
  const source = { generation: '0.1' as string | null, current: () => source.generation };
  const cache = new ResultCache<string>(source, { maxEntries: maxPages, maxAgeMs });
  const ahead = {
    get: async (key: string, load: () => Promise<Loaded>) => (await cache.take(key, load)).value,
    get size() {
      return cache.size;
    },
  };
  let searches = 0;
  /** A search whose first page is `first` and which reads `next` ahead. */
  const search =
    (first: string, ...next: string[]) =>
    (): Promise<Loaded> => {
      searches++;
      return Promise.resolve([first, ...next].map((page) => ({ key: page, value: page })));
    };
  return { source, ahead, search, searches: () => searches };
}

it('serves each page read ahead once, then searches again', async () => {
  const { ahead, search, searches } = setup();
  expect(await ahead.get('p1', search('p1', 'p2', 'p3'))).toBe('p1');
  expect(await ahead.get('p2', search('never'))).toBe('p2');
  expect(await ahead.get('p3', search('never'))).toBe('p3');
  expect(searches()).toBe(1);
  expect(ahead.size).toBe(0);
  // Served once: asked again, the page is searched for (and its own first page is the answer).
  expect(await ahead.get('p2', search('p2 again'))).toBe('p2 again');
  expect(searches()).toBe(2);
});

it('never serves a page read under another generation', async () => {
  const { source, ahead, search, searches } = setup();
  await ahead.get('p1', search('p1', 'p2'));
  source.generation = '1.1';
  expect(await ahead.get('p2', search('p2 new'))).toBe('p2 new');
  expect(searches()).toBe(2);
});

it('keeps nothing while the generation is unknown', async () => {
  const { source, ahead, search, searches } = setup();
  source.generation = null;
  await ahead.get('p1', search('p1', 'p2'));
  expect(ahead.size).toBe(0);
  expect(await ahead.get('p2', search('p2 searched'))).toBe('p2 searched');
  expect(searches()).toBe(2);
});

it('keeps nothing read while the generation changed', async () => {
  const { source, ahead, search, searches } = setup();
  const changing = (): Promise<Loaded> => {
    source.generation = '2.1';
    return Promise.resolve([
      { key: 'p1', value: 'p1' },
      { key: 'p2', value: 'p2' },
    ]);
  };
  expect(await ahead.get('p1', changing)).toBe('p1');
  expect(ahead.size).toBe(0);
  // The page read with it is searched for again.
  expect(await ahead.get('p2', search('p2 searched'))).toBe('p2 searched');
  expect(searches()).toBe(1);
});

it('serves no page older than its bound', async () => {
  const { ahead, search, searches } = setup(100, 0);
  await ahead.get('p1', search('p1', 'p2'));
  expect(await ahead.get('p2', search('p2 searched'))).toBe('p2 searched');
  expect(searches()).toBe(2);
  // The stale page was dropped, not kept for later.
  expect(ahead.size).toBe(0);
});

it('holds at most its bound, dropping the pages read ahead longest ago', async () => {
  const { ahead, search, searches } = setup(2);
  await ahead.get('a1', search('a1', 'a2', 'a3'));
  await ahead.get('b1', search('b1', 'b2'));
  expect(ahead.size).toBe(2);
  expect(await ahead.get('b2', search('never'))).toBe('b2');
  expect(await ahead.get('a3', search('never'))).toBe('a3');
  expect(await ahead.get('a2', search('a2 searched'))).toBe('a2 searched');
  expect(searches()).toBe(3);
});

it('a search that fails keeps nothing and fails the request', async () => {
  const { ahead } = setup();
  await expect(ahead.get('p1', () => Promise.reject(new Error('engine down')))).rejects.toThrow(
    'engine down',
  );
  expect(ahead.size).toBe(0);
});

it('says whether the page was taken and how many were kept', async () => {
  const source = { current: () => '0.1' };
  const cache = new ResultCache<string>(source, { maxEntries: 10, maxAgeMs: 60_000 });
  const load = () =>
    Promise.resolve(['p1', 'p2', 'p3'].map((page) => ({ key: page, value: page })));
  expect(await cache.take('p1', load)).toEqual({ value: 'p1', taken: false, kept: 2 });
  expect(await cache.take('p2', load)).toEqual({ value: 'p2', taken: true, kept: 0 });
});
