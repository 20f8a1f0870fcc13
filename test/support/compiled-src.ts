import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

// The child processes of the integration suites (the admin CLI, the API in production mode, its
// API_PROCESSES workers: about a hundred a run) run src/ as plain JavaScript that the global set-up
// builds once per run, not through tsx, and as one bundle per entry, not file by file. tsx's loader
// hooks cost each child about 0.3 s of CPU before the CLI started (0.63 s against 0.33 s for
// `account create`); finding, reading and compiling the ~1,270 files of src/ and node_modules one
// by one cost it about half of what was left (0.43 s of CPU for `account create` file by file,
// 0.23 s bundled). The bundles are what tsx itself would run: esbuild strips the types with the
// compiler options of tsconfig.json and `import()` as tsc's require() (test/support/esbuild-jest.mjs),
// and inlines the modules as Node would load them. Each lies two folders below the tree's root, as
// every file of src/ that derives a path from __dirname does (src/<folder>/<file>), beside links to
// migrations/, index-mappings/ and scripts/, so those paths resolve as they do from src/. The AWS
// SDK stays outside (loaded on first use, from node_modules, as in production), and so does
// swagger-ui-dist, whose files the docs route finds with require.resolve. `npm start` through tsx
// keeps a suite of its own (production-mode), and built-server runs tsc's build with node.

const ROOT = path.resolve(__dirname, '../..');
/** Where the run's compiled tree is named for the workers (jest passes the parent's env on). */
const COMPILED_ENV = 'TEST_COMPILED_ROOT';

/** The entries the suites start, by the name nodeArgs takes, and their bundles in the tree. */
const ENTRIES = {
  main: { source: 'src/main.ts', bundle: 'src/bundles/main.js' },
  'cli/main': { source: 'src/cli/main.ts', bundle: 'src/bundles/cli-main.js' },
} as const;

/** Builds the bundles into a folder of their own for this run; the global set-up calls it once. */
export function compileSources(): string {
  const parent = path.join(ROOT, '.cache', 'test-src');
  // A run that was killed left its tree behind (about 6 MB): gone after a day.
  for (const old of existsSync(parent) ? readdirSync(parent) : []) {
    const dir = path.join(parent, old);
    if (Date.now() - statSync(dir).mtimeMs > 86_400_000)
      rmSync(dir, { recursive: true, force: true });
  }
  const root = path.join(parent, randomBytes(6).toString('hex'));
  const { compilerOptions } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
  buildSync({
    entryPoints: Object.values(ENTRIES).map(({ source, bundle }) => ({
      in: path.join(ROOT, source),
      out: path.join(root, bundle.replace(/\.js$/, '')),
    })),
    outdir: root,
    bundle: true,
    external: ['@aws-sdk/*', 'swagger-ui-dist'],
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    tsconfigRaw: { compilerOptions },
    supported: { 'dynamic-import': false },
    logLevel: 'error',
  });
  for (const dir of ['migrations', 'index-mappings', 'scripts']) {
    symlinkSync(path.join(ROOT, dir), path.join(root, dir), 'dir');
  }
  process.env[COMPILED_ENV] = root;
  return root;
}

/** The global teardown's half: the compiled tree goes with the run. */
export function removeCompiledSources(): void {
  const root = process.env[COMPILED_ENV];
  if (root) rmSync(root, { recursive: true, force: true });
}

/**
 * How a child process runs `src/<entry>.ts`: node on the run's bundle of it, or (a run without
 * the global set-up) through tsx as `npm start` and `npm run cli` do.
 */
export function nodeArgs(entry: keyof typeof ENTRIES): string[] {
  const root = process.env[COMPILED_ENV];
  const { source, bundle } = ENTRIES[entry];
  return root ? [path.join(root, bundle)] : ['--import', 'tsx', source];
}
