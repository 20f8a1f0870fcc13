import { nodesWithoutC2 } from '../../scripts/bench/machine';

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
