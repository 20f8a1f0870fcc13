import { parseArgs } from '../../src/cli/command';

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
