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
