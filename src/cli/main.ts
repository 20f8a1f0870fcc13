import { bootstrap, shutdown } from '../bootstrap';
import type { RealCapabilities } from '../app/compose';
import {
  checkArguments,
  parseArgs,
  UsageError,
  type Command,
  type ComposeOptions,
  SWITCHES,
} from './command';
import { commands } from './commands';
import { commandHelp, overview } from './help';
import { ProgressReporter } from './progress-reporter';
import { upstreamSaid } from '../infra/upstream-refusal';

// `npm run cli -- COMMAND [args] [--json]` (contract §22.9). With --json, exactly one JSON object is
// printed on stdout; logs and progress lines go to stderr.

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Which words ask for help: `--help` or `-h` where a flag may stand, or `help` as the first word.
 * The same word as a flag's value (`--label help`) or a file's name (`import help`) is that value:
 * taken for help, it printed the help text and exited 0, and a script saw a key made.
 */
function helpWords(argv: readonly string[]): Set<number> {
  const at = new Set<number>();
  argv.forEach((word, i) => {
    const previous = i > 0 ? argv[i - 1] : undefined;
    const isValue =
      previous !== undefined &&
      previous.startsWith('--') &&
      !previous.includes('=') &&
      !SWITCHES.has(previous.slice(2));
    if (isValue) return;
    const firstWord = argv.slice(0, i).every((w) => w === '--json');
    if (HELP_FLAGS.has(word) || (word === 'help' && firstWord)) at.add(i);
  });
  return at;
}

async function main(argv: string[]): Promise<number> {
  const help = helpWords(argv);
  const wantsHelp = help.size > 0;
  const words = argv.filter((_, i) => !help.has(i));
  // --json may come anywhere, before the command too (`cli --json usage --account ID`).
  const jsonFlag = words.includes('--json') ? ['--json'] : [];
  const [first, second, ...rest] = words.filter((w) => w !== '--json');
  const byName = new Map(commands.map((c) => [c.name, c]));
  // Two-word commands ("account create") come first, then one-word ones.
  let command: Command | undefined = byName.get(`${first} ${second}`);
  let args = [...rest, ...jsonFlag];
  if (!command) {
    command = byName.get(first ?? '');
    args = second === undefined ? args : [second, ...args];
  }
  if (!command) {
    if (wantsHelp) {
      process.stdout.write(overview(commands));
      return 0;
    }
    const named = words.filter((w) => w !== '--json').join(' ');
    const error = named ? `unknown command: ${named}` : 'no command given';
    // Said first, then the usage: the usage alone did not say what was wrong.
    process.stderr.write(`${error}\n\n${overview(commands)}`);
    // With --json, one JSON object on stdout whatever happens (contract §22.9).
    if (words.includes('--json')) process.stdout.write(JSON.stringify({ ok: false, error }) + '\n');
    return 2;
  }
  if (wantsHelp) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  const parsed = parseArgs(args);
  const json = parsed.flags.has('json');
  // Lines every 2 s on a terminal or with --json; every 10 s into a file or pipe.
  const progress = new ProgressReporter({
    command: command.name,
    json,
    write: (line) => process.stderr.write(line + '\n'),
    intervalMs: json || process.stderr.isTTY ? 2000 : 10_000,
  });
  let capabilities: RealCapabilities | undefined;
  const composed = async (options: ComposeOptions = {}) => {
    if (!capabilities) {
      // Loaded on first use: the Postgres-only commands never load the read service's modules.
      const { compose } = await import('../app/compose');
      capabilities = compose(
        await bootstrap({ poolSize: 4, bulkSearch: true, bulk: true, ...options }),
      );
      progress.start();
    }
    return capabilities;
  };
  try {
    checkArguments(command, parsed);
    parsed.flags.delete('json');
    const result = await command.run(parsed, composed, { progress });
    const failed = result.ok === false;
    process.stdout.write(json ? JSON.stringify(result) + '\n' : formatHuman(result));
    return failed ? 1 : 0;
  } catch (err) {
    // The engine's own answer (`HTTP 413: ...`), not its client's bare "Response Error".
    const engine = (err as { name?: unknown } | null)?.name === 'ResponseError';
    const message = engine
      ? `the search engine refused: ${upstreamSaid(err)}`
      : err instanceof Error
        ? err.message
        : String(err);
    if (json) process.stdout.write(JSON.stringify({ ok: false, error: message }) + '\n');
    else console.error(`error: ${message}`);
    // 2 is for what the command line got wrong; a configuration the environment got wrong is 1, as
    // the server exits with it (docs/operations.md, Admin CLI).
    return err instanceof UsageError ? 2 : 1;
  } finally {
    progress.stop();
    if (capabilities) await shutdown(capabilities.deps);
  }
}

function formatHuman(result: Record<string, unknown>): string {
  return JSON.stringify(result, null, 2) + '\n';
}

main(process.argv.slice(2)).then((code) => process.exit(code));
