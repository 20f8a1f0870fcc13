import { MAX_MERGED_SEGMENT_BYTES, mergedSegments } from '../../src/search/index-compaction';

describe('mergedSegments', () => {
  it('merges a shard into one segment per 5 GB of its store, at least one', () => {
    expect(MAX_MERGED_SEGMENT_BYTES).toBe(5 * 1024 ** 3);
    expect(mergedSegments(0)).toBe(1);
    expect(mergedSegments(1_127 * 1024 ** 2)).toBe(1);
    expect(mergedSegments(MAX_MERGED_SEGMENT_BYTES)).toBe(1);
    expect(mergedSegments(MAX_MERGED_SEGMENT_BYTES + 1)).toBe(2);
    expect(mergedSegments(12 * 1024 ** 3)).toBe(3);
  });
});
