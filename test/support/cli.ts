import { execFile } from 'node:child_process';
import path from 'node:path';
import { nodeArgs } from './compiled-src';
import { TEST_CURSOR_KEYS } from './harness';

// The one way the suite runs the admin CLI: as an operator does (`npm run cli -- ...`), in a child
// process, against a test database. One node process per run (no npx and no tsx relay process), on
// the run's compiled src/ (test/support/compiled-src.ts) rather than through tsx's loader.

const ROOT = path.resolve(__dirname, '../..');

export interface CliOptions {
  /** DATABASE_URL of the run (a test context's databaseUrl). */
  databaseUrl?: string;
  /** Added to (or overriding) the environment; undefined removes a variable. */
  env?: Record<string, string | undefined>;
}

export interface CliRun {
  /** The exit status. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli/main.ts ...args` and resolves with its exit status and output, whatever it is. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
    LOG_LEVEL: 'silent',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs('cli/main'), ...args],
      { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Runs the CLI with --json: it must print exactly one line on stdout, the JSON object returned as
 * `report`, with the exit status and stderr.
 */
export async function cliJson(
  args: string[],
  options: CliOptions = {},
): Promise<{ code: number; report: Record<string, unknown>; stderr: string }> {
  const run = await runCli([...args, '--json'], options);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return {
    code: run.code,
    report: JSON.parse(lines[0] ?? '{}') as Record<string, unknown>,
    stderr: run.stderr,
  };
}
