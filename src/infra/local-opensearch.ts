import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/opensearch-local.sh');

/**
 * The checkout's local OpenSearch (decisions 10): started by the first caller that needs it,
 * reused by the others, restarted when it has crashed. Returns its URL.
 */
export async function ensureLocalOpenSearch(): Promise<string> {
  const { stdout } = await run('bash', [SCRIPT, 'start'], {
    timeout: 15 * 60_000,
    maxBuffer: 1 << 20,
  });
  const url = stdout.trim().split('\n').pop() ?? '';
  if (!/^https?:\/\//.test(url))
    throw new Error(`local OpenSearch did not report its URL: ${stdout}`);
  return url;
}
