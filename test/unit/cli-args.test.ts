import { checkArguments, parseArgs, UsageError } from '../../src/cli/command';
import { commandHelp, invocation, overview } from '../../src/cli/help';
import { commands } from '../../src/cli/commands';
import { inFlags } from '../../src/cli/commands/account-create';

describe('CLI arguments', () => {
  it('reads --name value, --name=value and a bare flag at the end', () => {
    const parsed = parseArgs(['seed', '--count', '10', '--seed=42', '--json']);
    expect(parsed.positional).toEqual(['seed']);
    expect([...parsed.flags]).toEqual([
      ['count', '10'],
      ['seed', '42'],
      ['json', true],
    ]);
  });

  it.each([
    [['--json', 'records.ndjson'], 'json'],
    [['--no-sync', 'records.ndjson'], 'no-sync'],
    [['--help', 'records.ndjson'], 'help'],
  ])('a switch (%j) never swallows the word after it', (argv, name) => {
    const parsed = parseArgs(argv);
    expect(parsed.positional).toEqual(['records.ndjson']);
    expect(parsed.flags.get(name)).toBe(true);
  });

  it('import --json --no-sync FILE keeps the file whatever the order', () => {
    for (const argv of [
      ['--json', '--no-sync', 'f.ndjson'],
      ['--no-sync', '--json', 'f.ndjson'],
      ['f.ndjson', '--json', '--no-sync'],
      ['--json', 'f.ndjson', '--no-sync'],
    ]) {
      const parsed = parseArgs(argv);
      expect(parsed.positional).toEqual(['f.ndjson']);
      expect(parsed.flags.get('json')).toBe(true);
      expect(parsed.flags.get('no-sync')).toBe(true);
    }
  });
});

// Every command's arguments are checked before it runs: a typo is a usage error (exit 2), never a
// flag swallowing an id or a file silently left out.
describe('checkArguments', () => {
  const named = (name: string) => {
    const command = commands.find((c) => c.name === name);
    if (!command) throw new Error(`no command ${name}`);
    return command;
  };
  const check = (name: string, argv: string[]) => () =>
    checkArguments(named(name), parseArgs(argv));

  it.each<[string, string[], RegExp]>([
    ['delete', ['--dry-run', 'A', 'B'], /unknown flag --dry-run for delete/],
    ['import', ['a.ndjson', 'b.ndjson'], /import takes 1 argument, got 2/],
    ['import', ['a.ndjson', '--nosync'], /unknown flag --nosync/],
    ['seed', ['--count', '5', '--seeed', '9'], /unknown flag --seeed/],
    ['sync', ['--bogus'], /unknown flag --bogus/],
    ['migrate', ['extra'], /migrate takes no argument, got 1/],
    ['delete', [], /delete takes at least 1 argument, got 0/],
    ['usage', ['--account', 'x', '--acount', 'y'], /unknown flag --acount/],
    ['key revoke', [], /key revoke takes 1 argument, got 0/],
    ['account create', ['--plan', 'free', '--plan', 'growth'], /--plan is given more than once/],
    ['seed', ['--count=5', '--count', '6'], /--count is given more than once/],
    ['import', ['a.ndjson', '--no-sync=false'], /--no-sync takes no value/],
    ['import', ['a.ndjson', '--no-sync=yes'], /--no-sync takes no value/],
    // --json is every command's switch, and a switch all the same (it created the account).
    ['account create', ['--plan', 'free', '--json=1'], /--json takes no value/],
    ['key create', ['--account', 'A', '--json=yes'], /--json takes no value/],
  ])('%s %j is refused', (name, argv, message) => {
    expect(check(name, argv)).toThrow(UsageError);
    expect(check(name, argv)).toThrow(message);
  });

  it.each<[string, string[]]>([
    ['delete', ['A', 'B', '--json']],
    ['import', ['a.ndjson', '--no-sync']],
    ['seed', ['--count', '5', '--seed', '9']],
    ['account update', ['ID', '--plan', 'growth']],
    ['key create', ['--account', 'A', '--label', 'x']],
    ['import', ['a.ndjson', '--no-sync', '--no-sync', '--json']],
  ])('%s %j is taken', (name, argv) => {
    expect(check(name, argv)).not.toThrow();
  });

  // A usage error quotes the synopsis: the usage line up to the gap before its description
  // (import's description ran into its synopsis and was quoted as usage).
  it.each(commands.map((c) => [c.name, c] as const))(
    "%s's synopsis is its name, flags and placeholders",
    (name, command) => {
      const synopsis = command.usage.split(/\s{3,}/)[0] ?? '';
      expect(synopsis.startsWith(name)).toBe(true);
      // After the name: only flags, UPPER-CASE placeholders, listed values and brackets, and a
      // bracketed note without flags (account update's "[same flags as account create; ...]").
      const rest = synopsis
        .slice(name.length)
        .replace(/\[[^\]-]*\]/g, '')
        .replace(/--[a-z-]+|[A-Z_]+|\.\.\.|[a-z_]+(\|[a-z_]+)+|`none`|[\s[\]|]/g, '');
      expect(rest).toBe('');
    },
  );

  // The flags a command takes are the ones its help names: neither refuses a documented flag nor
  // takes an undocumented one (`account update` says "same flags as account create").
  it.each(commands.map((c) => [c.name, c] as const))(
    '%s takes exactly the flags its usage line names',
    (name, command) => {
      const documented = name === 'account update' ? named('account create').usage : command.usage;
      const flags = [...documented.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]);
      expect([...command.accepts.flags].sort()).toEqual([...new Set(flags)].sort());
    },
  );
});

// An id that is no uuid is a usage error naming the argument, before anything is connected, in
// every command alike (they answered exit 2 or 1, "no account nope" or a uuid message).
describe('id arguments', () => {
  const run = (name: string, argv: string[]) => {
    const command = commands.find((c) => c.name === name);
    if (!command) throw new Error(`no command ${name}`);
    const connect = () => Promise.reject(new Error('connected'));
    return command.run(parseArgs(argv), connect, { progress: undefined as never });
  };
  it.each([
    ['usage', ['--account', 'nope'], '--account'],
    ['key create', ['--account', 'nope'], '--account'],
    ['key list', ['--account', 'bad'], '--account'],
    ['account update', ['not-a-uuid', '--rps', '3'], 'ID'],
    ['key revoke', ['bad'], 'KEY_ID'],
  ])('%s %j → usage error naming %s', async (name, argv, what) => {
    const refused = run(name, argv);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(run(name, argv)).rejects.toThrow(`${what} must be an id (a uuid)`);
  });
});

// The repositories name stored fields; the operator typed flags (`--page-size 100000` was
// refused as "page_size_override: Too big").
describe('inFlags', () => {
  it.each([
    [
      'page_size_override: Too big: expected number to be <=100',
      '--page-size: Too big: expected number to be <=100',
    ],
    [
      'name: Too small: expected string to have >=1 characters',
      '--name: Too small: expected string to have >=1 characters',
    ],
    ['period_start must be before period_end', '--period-start must be before --period-end'],
    ['rps must be an integer of at least 1', '--rps must be an integer of at least 1'],
    ['label is longer than 200', '--label is longer than 200'],
    ['no account x', 'no account x'],
  ])('%s → %s', (message, said) => {
    expect(inFlags(message)).toBe(said);
  });
});

// A deployment of dist/ has no tsx and no src/: its help named `npm run cli --`, which fails there.
describe('help', () => {
  it('names the invocation that works where the CLI runs', () => {
    expect(invocation('/srv/app/dist/cli/main.js')).toBe('npm run cli:prod --');
    expect(invocation('/work/main/src/cli/main.ts')).toBe('npm run cli --');
    const migrate = commands.find((c) => c.name === 'migrate');
    if (!migrate) throw new Error('no migrate command');
    expect(commandHelp(migrate, 'npm run cli:prod --')).toMatch(
      /^usage: npm run cli:prod -- migrate +apply pending migrations/,
    );
    expect(overview(commands, 'npm run cli:prod --')).toContain(
      '`npm run cli:prod -- COMMAND --help` describes one command.',
    );
  });
});
