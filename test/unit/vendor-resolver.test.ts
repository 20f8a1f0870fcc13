import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The workers load the app's libraries from one bundle (test/support/vendor-resolver.cjs). What a
// test imports must still be the library itself: the same exports as Node's own require gives
// (asked of a plain node process: inside Jest, even createRequire goes through the resolver), and
// never a stand-in where Node would answer with another copy.

const ROOT = path.resolve(__dirname, '../..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SPECIFIERS: BUNDLED } = require('../support/vendor-resolver.cjs') as {
  SPECIFIERS: string[];
};

/** Each library's export names as Node's require gives them. */
const exportsByNode = JSON.parse(
  execFileSync(
    process.execPath,
    [
      '-e',
      `const out = {};
       for (const s of ${JSON.stringify(BUNDLED)}) out[s] = Object.keys(require(s)).sort();
       process.stdout.write(JSON.stringify(out));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  ),
) as Record<string, string[]>;

describe('the libraries bundled for the workers', () => {
  it.each(BUNDLED)('%s resolves to its stand-in, with the exports Node gives', (specifier) => {
    expect(require.resolve(specifier)).toContain(path.join('.cache', 'jest-vendor'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundled = require(specifier) as object;
    expect(Object.keys(bundled).sort()).toEqual(exportsByNode[specifier]);
    expect(exportsByNode[specifier]?.length).toBeGreaterThan(0);
  });

  it('leaves another copy of a library alone (the MCP client has jose 6, the app jose 5)', () => {
    const client = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'client');
    expect(require.resolve('jose', { paths: [client] })).toContain(
      path.join('client', 'node_modules', 'jose'),
    );
  });
});
