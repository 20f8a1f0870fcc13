import type { IncomingMessage } from 'node:http';
import type { Connection } from '@opensearch-project/opensearch';

type ConnectionClass = typeof Connection;

/**
 * The client's `requestTimeout` is the socket's idle time, and it ends when the answer's headers
 * arrive: an engine (or a link) that keeps sending a few bytes a second was never timed out, and a
 * list waited 30 to 120 s for its answer. This connection bounds the whole exchange, from the
 * request to the answer's last byte, by the same figure (contract §20.3). Past it, a call still
 * waiting for its headers times out as the client's own timeout does (TimeoutError); an answer
 * still being read is destroyed, which the client (or answer-items.ts, reading a stream) reports
 * as a ConnectionError. Either is 503 search_unavailable (client.ts searchCall).
 */
export function withWholeDeadline(Base: ConnectionClass): ConnectionClass {
  return class WholeDeadlineConnection extends Base {
    override request(
      params: Parameters<Connection['request']>[0],
      callback: Parameters<Connection['request']>[1],
    ): ReturnType<Connection['request']> {
      const ms = params.timeout;
      if (!ms) return super.request(params, callback);
      let answer: IncomingMessage | undefined;
      let failed = false;
      // Set once the request is out; the callback, which may come first, clears what is set.
      let timer: NodeJS.Timeout | undefined = undefined;
      const request = super.request(params, (err, response) => {
        if (err || !response) {
          failed = true;
          clearTimeout(timer);
          return callback(err, response);
        }
        answer = response;
        response.once('close', () => clearTimeout(timer));
        callback(null, response);
      });
      // Refused before any request was made (a path the client will not send): nothing to bound.
      if (failed) return request;
      timer = setTimeout(() => {
        if (answer) answer.destroy(new Error(`no complete answer within ${ms} ms`));
        else request.emit('timeout');
      }, ms);
      // The socket keeps the process alive while the call is out; the timer alone never does.
      timer.unref();
      return request;
    }
  };
}
