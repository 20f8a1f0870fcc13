import path from 'node:path';
import { quoteValue } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { Progress } from '../infra/progress';
import type { RealCapabilities } from '../app/compose';

/** One admin command (contract §22.9). `run` returns the JSON object printed with --json. */
export interface Command {
  name: string;
  /** One line: the synopsis and what it does. */
  usage: string;
  /** More lines for `COMMAND --help`: flags, effects, exit status. */
  help?: string;
  /**
   * What it takes besides --json and --help, checked before it runs (checkArguments): an unknown
   * flag or a wrong number of positional arguments is a usage error (exit 2) and changes nothing.
   */
  accepts: { flags: readonly string[]; positional: readonly [min: number, max: number] };
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
  /** Flags given more than once (checkArguments refuses them: which one was meant?). */
  repeated?: string[];
}

export class UsageError extends Error {}

/**
 * Flags that never take a value. Without this list `import --json FILE` read FILE as the value of
 * --json, so the command lost its file: a switch must not swallow the word after it.
 */
export const SWITCHES: ReadonlySet<string> = new Set(['json', 'help', 'no-sync']);

/** `--name value`, `--name=value` and bare `--flag`; everything else is positional. */
export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const repeated = new Set<string>();
  const set = (name: string, value: string | true) => {
    if (flags.has(name) && !SWITCHES.has(name)) repeated.add(name);
    flags.set(name, value);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const next = argv[i + 1];
    if (!SWITCHES.has(arg.slice(2)) && next !== undefined && !next.startsWith('--')) {
      set(arg.slice(2), next);
      i++;
    } else {
      set(arg.slice(2), true);
    }
  }
  return { positional, flags, ...(repeated.size ? { repeated: [...repeated] } : {}) };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

/**
 * An id argument (`--account ID`, `ID`, `KEY_ID`): one that is no uuid is a usage error (exit 2)
 * that names it, in every command alike; a uuid that names nothing is the command's own answer.
 */
export function uuidArgument(value: string, what: string): string {
  if (!isUuid(value))
    throw new UsageError(`${what} must be an id (a uuid), got ${quoteValue(value)}`);
  return value;
}

export function intFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw new UsageError(
      `--${name} must be a non-negative integer, at most ${Number.MAX_SAFE_INTEGER}`,
    );
  return Number(v);
}

/**
 * The arguments a command takes, checked once for every command before it runs. A typo must not
 * pass: `delete --dry-run A B` deleted B (the unknown flag took A as its value), `import a b`
 * imported a alone, `seed --seeed 9` seeded with seed 1.
 */
export function checkArguments(command: Command, args: ParsedArgs): void {
  const synopsis = `usage: ${command.usage.split(/\s{3,}/)[0] ?? command.name}`;
  for (const flag of args.flags.keys()) {
    // --json: every command's (main.ts reads it).
    if (flag !== 'json' && !command.accepts.flags.includes(flag)) {
      throw new UsageError(`unknown flag --${flag} for ${command.name} (${synopsis})`);
    }
  }
  for (const [flag, value] of args.flags) {
    // `--no-sync=false` meant no-sync: a switch is on by being there, and takes no value.
    if (SWITCHES.has(flag) && value !== true) {
      throw new UsageError(`--${flag} takes no value (${synopsis})`);
    }
  }
  const [twice] = args.repeated ?? [];
  if (twice !== undefined) throw new UsageError(`--${twice} is given more than once (${synopsis})`);
  const [min, max] = command.accepts.positional;
  const given = args.positional.length;
  if (given < min || given > max) {
    const wanted =
      max === 0
        ? 'no argument'
        : min === max
          ? `${min} argument${min === 1 ? '' : 's'}`
          : max === Number.POSITIVE_INFINITY
            ? `at least ${min} argument${min === 1 ? '' : 's'}`
            : `${min} to ${max} arguments`;
    throw new UsageError(`${command.name} takes ${wanted}, got ${given} (${synopsis})`);
  }
}

/**
 * A path the operator typed, from the directory they typed it in: `npm run cli` runs in the
 * checkout's root and says where it was started in INIT_CWD, so `import data.ndjson` from a
 * subdirectory reads that subdirectory's file, not the root's.
 */
export function userPath(typed: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), typed);
}
