import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { ensureIndex, dropIndices } from '../../src/search/index-manager';

// issue 24: rate_unit and rate_mid are additive mapping fields. An index created before them (the
// mapping is strict) gets them in place when the service starts or syncs, so new documents index
// instead of failing every sync until a reindex.

const client = new Client({ node: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200' });
const alias = `test_additive_${randomBytes(4).toString('hex')}`;
const file = path.resolve(__dirname, '../../index-mappings/opportunities.json');
const definition = JSON.parse(readFileSync(file, 'utf8')) as {
  settings: object;
  mappings: { properties: Record<string, unknown> };
};

afterAll(async () => {
  await dropIndices(client, alias);
  await client.close();
});

it('adds the fields the mapping file declares and an older index lacks', async () => {
  const { rate_unit: _unit, rate_mid: _mid, ...older } = definition.mappings.properties;
  const index = `${alias}__000001`;
  await client.indices.create({
    index,
    body: { ...definition, mappings: { ...definition.mappings, properties: older } } as never,
  });
  await client.indices.updateAliases({ body: { actions: [{ add: { index, alias } }] } });
  expect(await ensureIndex(client, alias)).toBe(index);
  const res = await client.indices.getMapping({ index });
  const props = (res.body as Record<string, { mappings: { properties: Record<string, unknown> } }>)[
    index
  ]?.mappings.properties;
  expect(props?.rate_unit).toEqual({ type: 'keyword' });
  expect(props?.rate_mid).toEqual({ type: 'double' });
  // A document with the new fields is accepted by the strict mapping.
  await client.index({
    index,
    id: '1',
    body: { id: '1', rate_unit: 'day', rate_mid: 550 } as never,
    refresh: true,
  });
  expect((await client.count({ index })).body.count).toBe(1);
});
