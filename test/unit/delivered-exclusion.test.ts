import type { Client } from '@opensearch-project/opensearch';
import { deliveredByIds, type DeliveredRecords } from '../../src/domain/delivered-records';
import { DeliveredExclusion, recordNumbersClause } from '../../src/search/exclusions';
import { LiveMapping } from '../../src/search/live-mapping';

// How new_count and unseen_only leave delivered records out: by record number
// when the live index has the field, else by id; the mapping is asked once per index generation
// (search/live-mapping.ts), and what else it tells (digests as doc values, mapping 6).

type MappingState = { numbered: boolean; digests?: boolean; asked: number; fail?: boolean };

/** A client whose mapping has record_num or not, counting how often it is asked. */
function fakeClient(state: MappingState): Client {
  return {
    indices: {
      getMapping: async () => {
        state.asked++;
        if (state.fail) throw new Error('engine down');
        const properties = {
          id: {},
          ...(state.numbered ? { record_num: {} } : {}),
          // The engine leaves a default out of the mapping it returns.
          record_digest: state.digests === true ? {} : { doc_values: false },
        };
        return { body: { alias__1: { mappings: { properties } } } };
      },
    },
  } as unknown as Client;
}

const numbered = (bitmap: string, ids: string[]): DeliveredRecords => ({
  count: ids.length,
  bitmap,
  ids: async () => ids,
});

it('goes by number on an index with record numbers, by id otherwise, and not at all for none', async () => {
  const state = { numbered: true, asked: 0 };
  const exclusion = new DeliveredExclusion(new LiveMapping(fakeClient(state), 'alias'));
  const delivered = numbered('BITMAP', ['b', 'a']);
  expect(await exclusion.clauses(delivered)).toEqual([recordNumbersClause('BITMAP')]);
  // The numbers delivered since the bitmap was made go beside it, as plain values.
  expect(await exclusion.clauses({ ...delivered, recent: [7, 3] })).toEqual([
    recordNumbersClause('BITMAP'),
    { terms: { record_num: [7, 3] } },
  ]);
  expect(await exclusion.clauses({ ...delivered, recent: [] })).toEqual([
    recordNumbersClause('BITMAP'),
  ]);
  // Known by id only (the in-memory meter): ids, whatever the index.
  expect(await exclusion.clauses(deliveredByIds(['b', 'a']))).toEqual([
    { terms: { id: ['a', 'b'] } },
  ]);
  state.numbered = false;
  expect(await exclusion.clauses(delivered)).toEqual([{ terms: { id: ['a', 'b'] } }]);
  // Nothing delivered: no clause, no question to the engine.
  const asked = state.asked;
  expect(await exclusion.clauses(deliveredByIds([]))).toEqual([]);
  expect(await exclusion.clauses(undefined)).toEqual([]);
  expect(state.asked).toBe(asked);
});

it('asks the mapping once per index generation, and every time when none is known', async () => {
  const state = { numbered: false, asked: 0 };
  let generation: string | null = '1.1';
  const exclusion = new DeliveredExclusion(
    new LiveMapping(fakeClient(state), 'alias', () => generation),
  );
  const delivered = numbered('BITMAP', ['a']);
  await exclusion.clauses(delivered);
  state.numbered = true; // a reindex swapped the alias...
  expect(await exclusion.clauses(delivered)).toEqual([{ terms: { id: ['a'] } }]);
  expect(state.asked).toBe(1);
  generation = '1.2'; // ...and told the processes
  expect(await exclusion.clauses(delivered)).toEqual([recordNumbersClause('BITMAP')]);
  expect(state.asked).toBe(2);
  generation = null;
  await exclusion.clauses(delivered);
  await exclusion.clauses(delivered);
  expect(state.asked).toBe(4);
});

it('tells digests as doc values apart, and asks again after a failed question', async () => {
  const state: MappingState = { numbered: true, digests: false, asked: 0, fail: true };
  const mapping = new LiveMapping(fakeClient(state), 'alias', () => '1.1');
  await expect(mapping.features()).rejects.toThrow('engine down');
  state.fail = false;
  expect(await mapping.features()).toEqual({ recordNumbers: true, digestValues: false });
  expect(state.asked).toBe(2);
  state.digests = true;
  // Same generation: the kept answer.
  expect((await mapping.features()).digestValues).toBe(false);
  expect(state.asked).toBe(2);
});

it('an alias with no index behind it has no feature', async () => {
  const client = {
    indices: { getMapping: async () => ({ body: {} }) },
  } as unknown as Client;
  expect(await new LiveMapping(client, 'alias').features()).toEqual({
    recordNumbers: false,
    digestValues: false,
  });
});
