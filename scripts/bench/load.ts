import autocannon from 'autocannon';

// One workload driven by autocannon over keep-alive connections. Each request is `next(state)`;
// `onBody` sees every response (cursor paging reads the next cursor from it). Errors are transport errors, timeouts, non-2xx answers and bodies that `isError`
// flags (an MCP tool error comes back as HTTP 200).

export interface Req {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  next: (context: Record<string, unknown>) => Req;
  onBody?: (body: string, context: Record<string, unknown>) => void;
  isError?: (body: string) => boolean;
  /** Sees every response, whatever its status, before its state is lent to another request. */
  onDone?: (context: Record<string, unknown>) => void;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let bodyErrors = 0;
  // autocannon clears a request's context after every response when its request list has one
  // entry, so state kept there (a cursor to follow, a filter of one's own) never reached the next
  // request: cursor workloads measured first pages only. Each request instead borrows a state
  // object no request in flight holds and gives it back with its response; there are never more
  // states than connections, and a chain of cursors goes on whichever connection carries it.
  const idle: Array<Record<string, unknown>> = [];
  const stateOf = (context: Record<string, unknown>): Record<string, unknown> =>
    (context.state ??= idle.pop() ?? {}) as Record<string, unknown>;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    requests: [
      {
        setupRequest: (req, context) => {
          const r = spec.next(stateOf(context as Record<string, unknown>));
          return {
            ...req,
            method: r.method ?? 'GET',
            path: r.path,
            headers: { ...spec.headers, ...r.headers },
            body: r.body,
          } as typeof req;
        },
        onResponse: (status: number, body: string, context: Record<string, unknown>) => {
          const state = stateOf(context);
          spec.onDone?.(state);
          if (status >= 200 && status < 300) {
            if (spec.isError?.(body)) bodyErrors++;
            spec.onBody?.(body, state);
          }
          idle.push(state);
        },
      },
    ],
  } as autocannon.Options);
  const total = result.requests.total;
  return {
    requests: total,
    rps: total / spec.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx + bodyErrors,
  };
}
