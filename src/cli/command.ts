import type { Progress } from '../infra/progress';
import type { RealCapabilities } from '../app/compose';

/** One admin command (contract §22.9). `run` returns the JSON object printed with --json. */
export interface Command {
  name: string;
  /** One line: the synopsis and what it does. */
  usage: string;
  /** More lines for `COMMAND --help`: flags, effects, exit status. */
  help?: string;
  /** `capabilities` composes on first call: commands that need only Postgres never call it. */
  run(
    args: ParsedArgs,
    capabilities: (options?: ComposeOptions) => Promise<RealCapabilities>,
    io?: CommandIo,
  ): Promise<Record<string, unknown>>;
}

/** How a command's capabilities are composed. */
export interface ComposeOptions {
  /** False: the store only, the search engine never contacted (import --no-sync). */
  searchEngine?: boolean;
}

/** What the CLI hands a command besides its arguments. */
export interface CommandIo {
  /** Progress lines on stderr; a no-op for quick commands that never call it. */
  progress: Progress;
}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {}

/**
 * Flags that never take a value. Without this list `import --json FILE` read FILE as the value of
 * --json, so the command lost its file: a switch must not swallow the word after it.
 */
const SWITCHES: ReadonlySet<string> = new Set(['json', 'help', 'no-sync']);

/** `--name value`, `--name=value` and bare `--flag`; everything else is positional. */
export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const next = argv[i + 1];
    if (!SWITCHES.has(arg.slice(2)) && next !== undefined && !next.startsWith('--')) {
      flags.set(arg.slice(2), next);
      i++;
    } else {
      flags.set(arg.slice(2), true);
    }
  }
  return { positional, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export function intFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a non-negative integer`);
  return Number(v);
}
