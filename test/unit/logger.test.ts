import { batchedStderr, createLogger } from '../../src/infra/logger';
import { redact, redactString } from '../../src/infra/redact';
import { runWithRequestId } from '../../src/infra/request-context';

// JSON logs through pino, the request id on every line written while serving a
// request, secrets redacted whatever field they are in.

const KEY = 'oppk_' + 'A1b2C3d4E5f6G7h8J9k0L1m2N3p4Q5r6S7';

function capture(level: Parameters<typeof createLogger>[0] = 'debug') {
  const lines: string[] = [];
  const logger = createLogger(level, (line) => lines.push(line));
  return {
    logger,
    lines,
    parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

it('writes one JSON object a line with an ISO time, a level name and the message', () => {
  const { logger, parsed } = capture();
  logger.info('hello', { n: 1 });
  expect(parsed()).toEqual([
    { level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: 'hello', n: 1 },
  ]);
});

it('respects the level and silent', () => {
  const info = capture('info');
  info.logger.debug('no');
  info.logger.warn('yes');
  expect(info.parsed().map((l) => l.msg)).toEqual(['yes']);
  const silent = capture('silent');
  silent.logger.error('no');
  expect(silent.lines).toEqual([]);
});

it('puts the request id on every line written inside a request, across awaits', async () => {
  const { logger, parsed } = capture();
  await runWithRequestId('req-123', async () => {
    logger.info('first');
    await new Promise((resolve) => setTimeout(resolve, 1));
    logger.warn('second', { detail: 'x' });
  });
  logger.info('outside');
  expect(parsed().map((l) => [l.msg, l.request_id])).toEqual([
    ['first', 'req-123'],
    ['second', 'req-123'],
    ['outside', undefined],
  ]);
});

// contract §17.5: an accepted id is logged exactly as sent (an id such as `oppk:run12345678` was
// logged as `oppk_[redacted]`, and could not be found by its own text).
it.each(['oppk:run12345678', 'shop.oppk-20261130abc', 'Oppk:Q4report2026'])(
  'logs the accepted request id %s as sent, in the context and in the fields',
  async (id) => {
    const { logger, parsed } = capture();
    await runWithRequestId(id, async () => {
      logger.info('served', { request_id: id, path: '/v1/opportunities/count' });
      await Promise.resolve();
      logger.info('context');
    });
    expect(parsed().map((l) => l.request_id)).toEqual([id, id]);
  },
);

it('redacts keys in any field, credential headers by name, and keys in the message', () => {
  const { logger, lines } = capture();
  logger.error(`failed for ${KEY}`, {
    headers: { 'x-api-key': 'anything', Authorization: 'Bearer abc', accept: 'json' },
    nested: [{ note: `key=${KEY}` }],
    error: new Error(`boom ${KEY}`),
    url: 'postgresql://user:hunter2@db/x',
    password: 'hunter2',
  });
  const text = lines.join('\n');
  expect(text).not.toContain(KEY);
  expect(text).not.toContain('hunter2');
  expect(text).not.toContain('Bearer abc');
  expect(text).not.toContain('anything');
  const line = JSON.parse(lines[0] ?? '{}') as { headers: Record<string, string> };
  expect(line.headers).toEqual({
    'x-api-key': '[redacted]',
    Authorization: '[redacted]',
    accept: 'json',
  });
});

it('redact leaves ordinary values alone', () => {
  expect(redact({ a: 1, b: 'text', c: [true, null] })).toEqual({
    a: 1,
    b: 'text',
    c: [true, null],
  });
  expect(redactString('Authorization: Bearer tok.en')).toBe('Authorization: Bearer [redacted]');
});

it('writes the lines of one event-loop turn together, in order (logging cost)', async () => {
  const writes: string[] = [];
  const write = batchedStderr({ write: (text: string) => writes.push(text) });
  write('a');
  write('b');
  expect(writes).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  write('c');
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes).toEqual(['a\nb\n', 'c\n']);
});

it('atomic: writes of whole lines of at most 4096 bytes, so processes sharing stderr never cut each other', async () => {
  const writes: string[] = [];
  const write = batchedStderr({ write: (text: string) => writes.push(text) }, { atomic: true });
  const line = (n: number) => `${String(n).padStart(4, '0')}${'x'.repeat(995)}`; // 1000 bytes with its newline
  for (let i = 0; i < 10; i++) write(line(i));
  write('y'.repeat(5000));
  write('é'.repeat(1000)); // 2000 bytes
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes.join('')).toBe(
    [...Array.from({ length: 10 }, (_, i) => line(i)), 'y'.repeat(5000), 'é'.repeat(1000)]
      .map((l) => `${l}\n`)
      .join(''),
  );
  for (const text of writes) {
    expect(text.endsWith('\n')).toBe(true);
    // Only a line longer than the bound alone goes past it.
    if (Buffer.byteLength(text) > 4096) expect(text.split('\n')).toHaveLength(2);
  }
  expect(writes.map((t) => Buffer.byteLength(t))).toEqual([4000, 4000, 2000, 5001, 2001]);
});

it('redactString scrubs every secret shape, and returns other strings as they are', () => {
  expect(redactString('key oppk_AbC123 in a path')).toBe('key oppk_[redacted] in a path');
  expect(redactString('BEARER tok.en;')).toBe('BEARER [redacted];');
  expect(redactString('postgres://user:pw@db/x')).toBe('postgres://user:[redacted]@db/x');
  const plain = '/v1/opportunities/count';
  expect(redactString(plain)).toBe(plain);
});

// A key pasted into a path with a character percent-encoded (the request log writes req.path as
// the client sent it) is still a key.
it('redactString finds a key behind percent-escapes', () => {
  const key = `oppk_${'Ab1'.repeat(12)}`;
  for (const path of [
    `/v1/opportunities/%6F${key.slice(1)}`,
    `/${key.slice(0, 4)}%5F${key.slice(5)}`,
    `/%6f%70%70%6b%5f${key.slice(5)}`,
    // Encoded twice, or with an invisible character after the prefix (an audit found both
    // logged whole).
    `/v1/opportunities/${key.slice(0, 4)}%255F${key.slice(5)}`,
    `/v1/opportunities/oppk_%E2%80%8B${key.slice(5)}`,
    `oppk_\u200b${key.slice(5)}`,
  ]) {
    const out = redactString(path);
    expect(out).not.toContain(key.slice(5));
    expect(out).toContain('oppk_[redacted]');
  }
  // Escapes without a key stay as they were, and so do words after oppk that are no secret.
  expect(redactString('/v1/opportunities/caf%C3%A9')).toBe('/v1/opportunities/caf%C3%A9');
  expect(redactString('/v1/x.oppk.abcdefghij')).toBe('/v1/x.oppk.abcdefghij');
  expect(redactString('shop.oppk-20261130abc')).toBe('shop.oppk-20261130abc');
});
