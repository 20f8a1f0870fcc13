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

export function overview(commands: readonly Command[]): string {
  return (
    'usage: npm run cli -- COMMAND [args] [--json]\n\n' +
    commands.map((c) => `  ${c.usage}`).join('\n') +
    '\n\n`npm run cli -- COMMAND --help` describes one command.\n\n' +
    COMMON
  );
}

export function commandHelp(command: Command): string {
  return `usage: npm run cli -- ${command.usage}\n${command.help ? `\n${command.help.trim()}\n` : ''}\n${COMMON}`;
}
