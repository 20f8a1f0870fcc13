// Structured logs: one JSON object a line on stderr. Never pass secrets here; request logging
// redacts credentials before it calls this (see http/middleware/request-log.ts).

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
};

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  level: Level | 'silent' = 'info',
  write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Logger {
  const emit = (l: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...fields }));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
