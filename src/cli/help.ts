import type { Command } from './command';

// `npm run cli -- --help` and `npm run cli -- COMMAND --help`: printed on stdout,
// exit status 0, nothing connected.

const COMMON = `Common options:
  --json     print exactly one JSON object on stdout; logs and progress go to stderr as JSON lines
  --help     this text

Environment: DATABASE_URL, OPENSEARCH_URL (local defaults when unset; see .env.example),
CURSOR_SIGNING_KEYS (required with NODE_ENV=production, as for the API), LOG_LEVEL,
OPENSEARCH_BULK_TIMEOUT_MS (bound on one bulk call, default 120000).
`;

/**
 * How the CLI was started, as the operator types it: the built one (`dist/cli/main.js`, a
 * deployment without tsx or `src/`) is `npm run cli:prod --`; `npm run cli --` would fail there.
 */
export function invocation(script = process.argv[1] ?? ''): string {
  return script.endsWith('.js') ? 'npm run cli:prod --' : 'npm run cli --';
}

export function overview(commands: readonly Command[], run = invocation()): string {
  return (
    `usage: ${run} COMMAND [args] [--json]\n\n` +
    commands.map((c) => `  ${c.usage}`).join('\n') +
    `\n\n\`${run} COMMAND --help\` describes one command.\n\n` +
    COMMON
  );
}

export function commandHelp(command: Command, run = invocation()): string {
  return `usage: ${run} ${command.usage}\n${command.help ? `\n${command.help.trim()}\n` : ''}\n${COMMON}`;
}
