import type { Client } from '@opensearch-project/opensearch';
import { assertFullJit, nodesWithoutC2 } from '../../scripts/bench/machine';

// The bench refuses an engine whose JVM compiles with C1 only (the test suite's
// OPENSEARCH_JIT=c1): its figures would not be the engine's.

const node = (name: string, args?: string[]) => ({
  name,
  jvm: args ? { input_arguments: args } : {},
});

it('names the nodes that stop tiered compilation below C2', () => {
  expect(
    nodesWithoutC2({
      nodes: {
        a: node('quick', ['-Xms1g', '-XX:TieredStopAtLevel=1']),
        b: node('full', ['-Xms1g', '-XX:TieredStopAtLevel=4']),
        c: node('default', ['-Xms1g', '-Xmx1g']),
        d: node('interpreted', ['-XX:TieredStopAtLevel=0']),
        e: node('unknown'),
      },
    }),
  ).toEqual(['quick', 'interpreted']);
});

it('falls back to the node id, and accepts an answer without nodes', () => {
  expect(
    nodesWithoutC2({ nodes: { x1: { jvm: { input_arguments: ['-XX:TieredStopAtLevel=2'] } } } }),
  ).toEqual(['x1']);
  expect(nodesWithoutC2({})).toEqual([]);
});

/** A client whose `_nodes` call answers `body`, or fails with `failure`. */
function engine(answer: { body?: unknown; failure?: unknown }): Pick<Client, 'nodes'> {
  const info = async () => {
    if (answer.failure) throw answer.failure;
    return { body: answer.body };
  };
  return { nodes: { info } } as unknown as Pick<Client, 'nodes'>;
}

const failure = (statusCode?: number) =>
  Object.assign(new Error('refused'), statusCode ? { meta: { statusCode } } : {});

it('refuses a C1-only engine, naming the node and the way out', async () => {
  const quick = engine({ body: { nodes: { a: node('vm', ['-XX:TieredStopAtLevel=1']) } } });
  await expect(assertFullJit(quick)).rejects.toThrow(
    /node\(s\) vm run with C1 only .*npm run opensearch -- stop; npm run opensearch -- start/,
  );
  await expect(
    assertFullJit(engine({ body: { nodes: { a: node('vm', ['-Xmx1g']) } } })),
  ).resolves.toBeUndefined();
});

it('measures a managed engine that hides its nodes, and fails on anything else', async () => {
  await expect(assertFullJit(engine({ failure: failure(403) }))).resolves.toBeUndefined();
  await expect(assertFullJit(engine({ failure: failure(404) }))).resolves.toBeUndefined();
  await expect(assertFullJit(engine({ failure: failure(503) }))).rejects.toThrow('refused');
  await expect(assertFullJit(engine({ failure: failure() }))).rejects.toThrow('refused');
});
