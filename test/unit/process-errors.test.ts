import { createLogger } from '../../src/infra/logger';
import { logProcessWarnings, logUnhandledRejections } from '../../src/infra/process-errors';

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

// Node printed a deprecation warning to stderr quoting a request's URL whole, a key in it, as two
// lines that were not JSON; it now goes to the log, redacted, and Node prints nothing.
it("logs Node's warnings as JSON lines, keys redacted, and replaces Node's own printer", () => {
  const before = process.listeners('warning');
  const lines: string[] = [];
  const key = `oppk_${'W'.repeat(40)}`;
  try {
    logProcessWarnings(createLogger('info', (l) => lines.push(l)));
    expect(process.listenerCount('warning')).toBe(1);
    // What Node emits (jest's sandbox keeps process.emitWarning's own event to itself).
    const warning = Object.assign(
      new Error(`The URL http://alice:s3cr@tPW@x:y/v1?q=PRIVATE&k=${key} is invalid.`),
      {
        name: 'DeprecationWarning',
        code: 'DEP0170',
      },
    );
    process.emit('warning', warning);
  } finally {
    process.removeAllListeners('warning');
    for (const listener of before) process.on('warning', listener);
  }
  for (const secret of [key, 'PRIVATE', 'tPW', 's3cr'])
    expect(lines.join('\n')).not.toContain(secret);
  expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toContainEqual(
    expect.objectContaining({
      level: 'warn',
      msg: 'process warning',
      name: 'DeprecationWarning',
      code: 'DEP0170',
      error: 'The URL [url] is invalid.',
    }),
  );
});
