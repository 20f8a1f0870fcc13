import { indexLowerCase } from '../../src/domain/index-case';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader } from '../support/read-http';

// contract §6.11.6: the filters lower-case text as the engine's `lowercase` normalizer does
// (src/domain/index-case.ts). The engine's Java and Node's ICU each carry an edition of Unicode's
// case table, and they part when one is newer (JDK 25 knows Unicode 16, Node 20's ICU Unicode 17):
// the engine itself is asked here, for every code point that has a case.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const hex = (text: string) =>
  [...text].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}`).join(' ');

it('lower-cases every cased code point as the index normalizer does', async () => {
  const cased: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (c.toLowerCase() !== c || c.toUpperCase() !== c) cased.push(c);
  }
  const res = await ctx.deps.search.indices.analyze({
    index: ctx.deps.alias,
    body: { field: 'city', text: cased },
  });
  const engine = (res.body.tokens ?? []).map((t) => t.token);
  expect(engine).toHaveLength(cased.length);
  const parted = cased
    .map((c, i) => ({ c, engine: engine[i] ?? '', here: indexLowerCase(c) }))
    .filter((p) => p.engine !== p.here)
    .map((p) => `${hex(p.c)}: the engine ${hex(p.engine)}, here ${hex(p.here)}`);
  expect(parted).toEqual([]);
});

it('finds a record by its own city when the city holds a letter only Unicode 17 lower-cases', async () => {
  // U+A7CE and U+A7CF are a case pair since Unicode 17; to the engine they are two letters.
  const mine = makeRecord({ location: { ...makeRecord().location, city: '\ua7cex' } });
  const other = makeRecord({ location: { ...makeRecord().location, city: '\ua7cfx' } });
  await storeAndIndex(ctx.deps, [mine, other]);
  const { key } = await newReader(ctx.deps);
  for (const [city, id] of [
    ['\ua7cex', mine.id],
    ['\ua7cfx', other.id],
  ] as const) {
    const res = await get(ctx.baseUrl, `/v1/opportunities?city=${encodeURIComponent(city)}`, {
      key,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    const count = await get(
      ctx.baseUrl,
      `/v1/opportunities/count?city=${encodeURIComponent(city)}`,
      { key },
    );
    expect(count.body.count).toBe(1);
  }
});
