import type { RequestHandler } from 'express';

/**
 * A handler assembled from code loaded when it is first needed, then kept. Loading the
 * tool-protocol adapter was nearly half of what loading the app cost (its SDK defines some hundred
 * zod schemas as it loads), and most processes that assemble an app never serve /mcp: the CLI's,
 * and most test files, each of which loads the app afresh. `start: 'now'` begins assembling at once
 * (the server process, so that no agent waits); 'on-first-request' waits for one.
 *
 * Requests that arrive while it is assembled wait for it. Should assembling fail, those requests
 * get the error (the app's error handler answers 500) and the next request tries again.
 */
export function assembledOnDemand(
  assemble: () => Promise<RequestHandler>,
  start: 'now' | 'on-first-request',
): RequestHandler {
  let handler: Promise<RequestHandler> | undefined;
  // Once assembled, requests go straight to it: no promise hop on the tool-protocol's hot path.
  let ready: RequestHandler | undefined;
  const assembled = (): Promise<RequestHandler> => {
    handler ??= assemble().then(
      (built) => (ready = built),
      (err: unknown) => {
        handler = undefined;
        throw err;
      },
    );
    return handler;
  };
  // Nobody awaits the early start: a failure is left to the first request, which assembles again.
  if (start === 'now') assembled().catch(() => undefined);
  return (req, res, next) => {
    if (ready) {
      void ready(req, res, next);
      return;
    }
    assembled().then((handle) => handle(req, res, next), next);
  };
}
