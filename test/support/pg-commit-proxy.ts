import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP forwarder to Postgres that can delay the server's answer to COMMIT (decisions 12): the
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

const COMMIT_QUERY = Buffer.from('COMMIT\0');

/** A simple-protocol Query message ('Q', int32 length, text) for COMMIT within the chunk. */
function hasCommit(chunk: Buffer): boolean {
  const at = chunk.indexOf(COMMIT_QUERY);
  return at >= 5 && chunk[at - 5] === 0x51;
}

export async function startCommitProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<CommitProxy> {
  let delayMs = 0;
  let commits = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    // Replies held since a COMMIT went up, and when they go down.
    let holdUntil = 0;
    let held: Buffer[] = [];
    const flush = () => {
      for (const chunk of held) client.write(chunk);
      held = [];
      holdUntil = 0;
    };
    client.on('data', (chunk: Buffer) => {
      if (hasCommit(chunk)) {
        commits++;
        if (delayMs > 0 && !holdUntil) {
          holdUntil = Date.now() + delayMs;
          if (Number.isFinite(delayMs)) setTimeout(flush, delayMs);
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (holdUntil) held.push(chunk);
      else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    delayCommitReplies(ms: number) {
      delayMs = ms;
    },
    get commits() {
      return commits;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
