import { createLogger } from '../../src/infra/logger';
import { logUnhandledRejections } from '../../src/infra/process-errors';

// contract §22: unhandled rejections are logged, not silent.
it('logs an unhandled rejection with its message', () => {
  const lines: string[] = [];
  const listener = logUnhandledRejections(createLogger('info', (l) => lines.push(l)));
  try {
    // What Node does when a rejected promise has no handler (jest keeps real ones to itself).
    process.emit('unhandledRejection', new Error('nobody awaited this'), Promise.resolve());
  } finally {
    process.off('unhandledRejection', listener);
  }
  expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toContainEqual(
    expect.objectContaining({
      level: 'error',
      msg: 'unhandled promise rejection',
      error: 'nobody awaited this',
    }),
  );
});
