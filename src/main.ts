import cluster from 'node:cluster';
import { inspect } from 'node:util';
import { ConfigError, parseEnv, type Env } from './config';
import { reportStartFailure, runPrimary } from './app/processes';
import { createLogger } from './infra/logger';
import { redactString } from './infra/redact';
import { UpstreamRefusedError } from './infra/upstream-refusal';

// What `npm start` runs: one API process (API_PROCESSES=1, the default), or a primary that runs
// API_PROCESSES of them on one port (app/processes.ts). The settings are read here first, so a bad
// one stops start-up before anything is forked or connected. The server's code is loaded only where
// it runs: the primary stays small.

// A bad setting or a refusing upstream is the operator's to fix: one line, no stack.
// Anything else is a bug: its stack, scrubbed of secrets like every log line.
function startFailureLine(err: unknown): string {
  const known = err instanceof ConfigError || err instanceof UpstreamRefusedError;
  // The stack, not the whole object: a client error's metadata holds its connection (and URL).
  return known
    ? err.message
    : redactString(err instanceof Error ? (err.stack ?? err.message) : inspect(err));
}

const exit = (code: number) => process.exit(code);

function start(env: Env): void {
  if (env.API_PROCESSES > 1 && cluster.isPrimary) {
    runPrimary({
      processes: env.API_PROCESSES,
      graceMs: env.SHUTDOWN_GRACE_MS,
      logger: createLogger(env.LOG_LEVEL, undefined, { role: 'primary', pid: process.pid }),
      printLine: (line) => console.error(line),
      exit,
    });
    return;
  }
  import('./server')
    .then(({ serve }) => serve(env))
    .catch((err: unknown) => reportStartFailure(startFailureLine(err), exit));
}

let env: Env;
try {
  env = parseEnv();
} catch (err) {
  console.error(startFailureLine(err));
  process.exit(1);
}
start(env);
