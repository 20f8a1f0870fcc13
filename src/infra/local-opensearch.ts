import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/opensearch-local.sh');

/**
 * How the local engine's JVM compiles (scripts/opensearch-local.sh, OPENSEARCH_JIT): `tiered` is
 * the JVM's default; `c1` only its quick compiler, for an engine that lives for one test run.
 */
export type LocalJit = 'tiered' | 'c1';

/**
 * The checkout's local OpenSearch (contract §22.3): started by the first caller that needs it,
 * reused by the others, restarted when it has crashed. Returns its URL.
 *
 * The script waits up to `startTimeoutSeconds` for health, possibly twice (an adopted instance that
 * never becomes healthy is replaced), after a download on a first run: this bound is longer than
 * all of that, so the script always gives up (and stops what it started) first. `jit` applies only
 * if this call launches the engine; without it the environment's OPENSEARCH_JIT (or the default).
 */
export async function ensureLocalOpenSearch({
  startTimeoutSeconds = 300,
  jit,
}: { startTimeoutSeconds?: number; jit?: LocalJit } = {}): Promise<string> {
  const { stdout } = await run('bash', [SCRIPT, 'start'], {
    env: {
      ...process.env,
      OPENSEARCH_START_TIMEOUT: String(startTimeoutSeconds),
      ...(jit ? { OPENSEARCH_JIT: jit } : {}),
    },
    timeout: (2 * startTimeoutSeconds + 600) * 1000,
    maxBuffer: 1 << 20,
  });
  const url = stdout.trim().split('\n').pop() ?? '';
  if (!/^https?:\/\//.test(url))
    throw new Error(`local OpenSearch did not report its URL: ${stdout}`);
  return url;
}
