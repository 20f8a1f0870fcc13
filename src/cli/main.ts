import { bootstrap, shutdown } from '../bootstrap';
import { ConfigError } from '../config';
import type { AppDeps } from '../service/context';
import { parseArgs, UsageError, type Command } from './command';
import { commands } from './commands';

// `npm run cli -- COMMAND [args] [--json]` (decisions 10). With --json, exactly one JSON object is
// printed on stdout; logs go to stderr.

async function main(argv: string[]): Promise<number> {
  const [first, second, ...rest] = argv;
  const byName = new Map(commands.map((c) => [c.name, c]));
  // Two-word commands ("account create") come first, then one-word ones.
  let command: Command | undefined = byName.get(`${first} ${second}`);
  let args = rest;
  if (!command) {
    command = byName.get(first ?? '');
    args = second === undefined ? rest : [second, ...rest];
  }
  if (!command) {
    console.error(
      `usage: npm run cli -- COMMAND [--json]\n${commands.map((c) => `  ${c.usage}`).join('\n')}`,
    );
    return 2;
  }
  const parsed = parseArgs(args);
  const json = parsed.flags.delete('json');
  let deps: AppDeps | undefined;
  const getDeps = async () => (deps ??= await bootstrap({ poolSize: 4 }));
  try {
    const result = await command.run(parsed, getDeps);
    const failed = result.ok === false;
    process.stdout.write(json ? JSON.stringify(result) + '\n' : formatHuman(result));
    return failed ? 1 : 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (json) process.stdout.write(JSON.stringify({ ok: false, error: message }) + '\n');
    else console.error(`error: ${message}`);
    return err instanceof UsageError || err instanceof ConfigError ? 2 : 1;
  } finally {
    if (deps) await shutdown(deps);
  }
}

function formatHuman(result: Record<string, unknown>): string {
  return JSON.stringify(result, null, 2) + '\n';
}

main(process.argv.slice(2)).then((code) => process.exit(code));
