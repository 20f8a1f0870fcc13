import type { ApiError } from '../domain/errors';
import type { Logger } from './logger';
import { metrics } from './metrics';

/**
 * Counts an error answer (REST envelope or MCP tool error; the presenter calls this as it writes
 * one), and gives an operator one warn
 * line when an upstream failed (503 search_unavailable, metering_unavailable): its code and the
 * upstream's own message (timeout, refused connection...), which the envelope never shows.
 */
export function reportApiError(err: ApiError, logger: Logger): void {
  metrics.apiError(err);
  if (err.status !== 503) return;
  const cause = err.cause;
  logger.warn('upstream unavailable', {
    code: err.code,
    error:
      cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause ?? err.message),
  });
}
