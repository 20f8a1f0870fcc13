import { startTcpForwarder } from './tcp-forwarder';

/**
 * A TCP forwarder to Postgres that can delay the server's answer to COMMIT (contract §16.6.2): the
 * COMMIT itself reaches the server at once, so the transaction commits; only the client learns it
 * late, or never. `delayCommitReplies(ms)` applies to the COMMITs sent from then on; Infinity
 * holds their answers until the connection closes.
 */
export interface CommitProxy {
  port: number;
  delayCommitReplies(ms: number): void;
  /** COMMITs seen since start. */
  readonly commits: number;
  close(): Promise<void>;
}

const COMMIT_QUERY = Buffer.from('COMMIT');

/**
 * A simple-protocol Query message ('Q', int32 length, text) with a COMMIT statement: alone, or the
 * last of several (the meter sends `BEGIN; ...; COMMIT` in one round trip).
 */
function hasCommit(chunk: Buffer): boolean {
  for (let at = chunk.indexOf(COMMIT_QUERY); at >= 0; at = chunk.indexOf(COMMIT_QUERY, at + 1)) {
    const next = chunk[at + COMMIT_QUERY.length];
    const alone = at >= 5 && chunk[at - 5] === 0x51;
    const last = at >= 2 && chunk[at - 1] === 0x0a && chunk[at - 2] === 0x3b;
    if ((alone || last) && (next === 0 || next === 0x3b)) return true;
  }
  return false;
}

export async function startCommitProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<CommitProxy> {
  let delayMs = 0;
  let commits = 0;
  const forwarder = await startTcpForwarder(targetPort, targetHost, (client, upstream) => {
    // The server's answers held since a COMMIT went up (null: none held).
    let held: Buffer[] | null = null;
    const flush = () => {
      for (const chunk of held ?? []) client.write(chunk);
      held = null;
    };
    client.on('data', (chunk: Buffer) => {
      if (hasCommit(chunk)) {
        commits++;
        if (delayMs > 0 && !held) {
          held = [];
          if (Number.isFinite(delayMs)) setTimeout(flush, delayMs);
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (held) held.push(chunk);
      else client.write(chunk);
    });
  });
  return {
    port: forwarder.port,
    delayCommitReplies(ms: number) {
      delayMs = ms;
    },
    get commits() {
      return commits;
    },
    close: () => forwarder.close(),
  };
}
