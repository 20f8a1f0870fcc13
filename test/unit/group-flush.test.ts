import { GroupFlush } from '../../src/store/group-flush';

/** A flush the test finishes by hand, recording which callers were waiting when each began. */
function manualFlushes() {
  const started: Array<{ finish: () => void; fail: (err: Error) => void }> = [];
  const group = new GroupFlush(
    () =>
      new Promise<void>((resolve, reject) => {
        started.push({ finish: resolve, fail: reject });
      }),
  );
  const flush = (i: number) => {
    const f = started[i];
    if (!f) throw new Error(`flush ${i} never started`);
    return f;
  };
  return { group, started, flush };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('GroupFlush: commits made durable in groups', () => {
  it('starts a flush at once when none runs, and resolves its caller when it ends', async () => {
    const { group, started, flush } = manualFlushes();
    let done = false;
    const waited = group.after().then(() => (done = true));
    await settle();
    expect(started).toHaveLength(1);
    expect(done).toBe(false);
    flush(0).finish();
    await waited;
    expect(done).toBe(true);
  });

  it('never lets a caller share a flush that began before it asked', async () => {
    const { group, started, flush } = manualFlushes();
    const first = group.after();
    await settle();
    let lateDone = false;
    const late = group.after().then(() => (lateDone = true));
    await settle();
    flush(0).finish();
    await first;
    await settle();
    // The running flush ended, but it may have begun before the late caller's commit.
    expect(lateDone).toBe(false);
    expect(started).toHaveLength(2);
    flush(1).finish();
    await late;
    expect(lateDone).toBe(true);
  });

  it('serves every caller that arrived during one flush with ONE next flush', async () => {
    const { group, started, flush } = manualFlushes();
    const first = group.after();
    await settle();
    const waiting = Array.from({ length: 15 }, () => group.after());
    await settle();
    expect(started).toHaveLength(1);
    flush(0).finish();
    await first;
    await settle();
    expect(started).toHaveLength(2);
    flush(1).finish();
    await Promise.all(waiting);
    expect(group.flushes).toBe(2);
  });

  it('fails every caller of a failed flush, and the next caller gets a new flush', async () => {
    const { group, flush } = manualFlushes();
    const a = group.after();
    await settle();
    const b = group.after();
    const c = group.after();
    flush(0).fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await settle();
    flush(1).fail(new Error('timeout'));
    await expect(b).rejects.toThrow('timeout');
    await expect(c).rejects.toThrow('timeout');
    const d = group.after();
    await settle();
    flush(2).finish();
    await expect(d).resolves.toBeUndefined();
  });

  it('treats a flush that throws before returning a promise as a failed flush', async () => {
    const group = new GroupFlush(() => {
      throw new Error('no pool');
    });
    await expect(group.after()).rejects.toThrow('no pool');
  });
});
