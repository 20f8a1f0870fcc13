import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

// The child processes of the integration suites (the admin CLI, the API in production mode, its
// API_PROCESSES workers) run src/ as plain JavaScript that the global set-up compiles once per run,
// not through tsx: tsx's loader hooks cost each child about 0.3 s of CPU before the CLI starts and
// 0.6 s before the app is loaded (0.63 s against 0.33 s for `account create`, 1.0 s against 0.44 s to
// load the app), and the suite starts about a hundred of them (docs/testing.md, Suite time). The
// output is what tsx itself would run: esbuild strips the types file by file, with the compiler
// options of tsconfig.json and `import()` as tsc's require() (test/support/esbuild-jest.mjs), and
// it lies at the same depth as src/, beside links to migrations/, index-mappings/ and scripts/,
// so every path the code derives from __dirname resolves as it does from src/. `npm start` through
// tsx keeps a suite of its own (production-mode), and built-server runs tsc's build with node.

const ROOT = path.resolve(__dirname, '../..');
/** Where the run's compiled tree is named for the workers (jest passes the parent's env on). */
const COMPILED_ENV = 'TEST_COMPILED_ROOT';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** Compiles src/ into a folder of its own for this run; the global set-up calls it once. */
export function compileSources(): string {
  const parent = path.join(ROOT, '.cache', 'test-src');
  // A run that was killed left its tree behind (about 2 MB): gone after a day.
  for (const old of existsSync(parent) ? readdirSync(parent) : []) {
    const dir = path.join(parent, old);
    if (Date.now() - statSync(dir).mtimeMs > 86_400_000)
      rmSync(dir, { recursive: true, force: true });
  }
  const root = path.join(parent, randomBytes(6).toString('hex'));
  const { compilerOptions } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
  buildSync({
    entryPoints: sources(path.join(ROOT, 'src')),
    outbase: path.join(ROOT, 'src'),
    outdir: path.join(root, 'src'),
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    tsconfigRaw: { compilerOptions },
    supported: { 'dynamic-import': false },
    logLevel: 'error',
  });
  // JSON imported by the code (the taxonomy) is required from beside it.
  cpSync(path.join(ROOT, 'src'), path.join(root, 'src'), {
    recursive: true,
    filter: (from) => !from.endsWith('.ts'),
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
 * How a child process runs `src/<entry>.ts`: node on the run's compiled copy, or (a run without
 * the global set-up) through tsx as `npm start` and `npm run cli` do.
 */
export function nodeArgs(entry: string): string[] {
  const root = process.env[COMPILED_ENV];
  return root
    ? [path.join(root, 'src', `${entry}.js`)]
    : ['--import', 'tsx', path.join('src', `${entry}.ts`)];
}
