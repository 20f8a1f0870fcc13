import type { Logger } from './logger';

/**
 * contract §22: a stray rejection is a bug to see in the logs, not silence, and not a reason to
 * drop every request in flight. Returns the listener (to remove it in tests).
 */
export function logUnhandledRejections(logger: Logger) {
  const listener = (reason: unknown) => {
    logger.error('unhandled promise rejection', {
      error: reason instanceof Error ? reason.message : String(reason),
      stack: reason instanceof Error ? reason.stack : undefined,
    });
  };
  process.on('unhandledRejection', listener);
  return listener;
}

/**
 * Node's warnings (a deprecation, a listener leak) go to the log as JSON lines, redacted, instead
 * of Node's own text on stderr: an absolute-form request target with a bad port
 * (`GET http://oppk_…@x:y/…`) made Node print DEP0170 quoting the whole URL, a key in it, as two
 * lines that were not JSON. Node's default printer is the only 'warning' listener at start-up;
 * it is replaced. Returns the listener (to remove it in tests).
 */
export function logProcessWarnings(logger: Logger) {
  process.removeAllListeners('warning');
  const listener = (warning: Error & { code?: string }) => {
    logger.warn('process warning', {
      name: warning.name,
      ...(warning.code ? { code: warning.code } : {}),
      // A URL in a warning is a request's (DEP0170 quotes it whole): its query string and any
      // password in it would be logged, which nothing else ever is.
      error: warning.message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, '[url]'),
    });
  };
  process.on('warning', listener);
  return listener;
}
