import { execFile } from 'node:child_process';
import { TEST_CURSOR_KEYS } from './harness';

/**
 * Runs `npm run cli -- ...args --json` against a test database as an operator would: its exit
 * status and the one JSON object it printed. `env` adds to (or overrides) the environment.
 */
export function cliJson(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; report: Record<string, unknown> }> {
  return new Promise((resolve) => {
    execFile(
      'node_modules/.bin/tsx',
      ['src/cli/main.ts', ...args, '--json'],
      {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
          LOG_LEVEL: 'silent',
          ...env,
        },
      },
      (err, stdout) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        const lines = stdout.trim().split('\n');
        expect(lines).toHaveLength(1);
        resolve({ code, report: JSON.parse(lines[0] ?? '{}') as Record<string, unknown> });
      },
    );
  });
}
