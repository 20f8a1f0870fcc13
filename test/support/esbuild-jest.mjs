// A Jest transformer that only strips types, with esbuild (a devDependency; tsx runs on the same engine).
// ts-jest, even with diagnostics off, builds a TypeScript language service in each worker and
// resolves every file's imports through it before it can even look in its cache: a cold run paid
// about a third more CPU for it. Type checking stays `npm run typecheck`'s job, and
// `isolatedModules` in tsconfig.json keeps every file compilable on its own, which is all a
// per-file transformer needs (docs/testing.md, Suite time).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync, version } from 'esbuild';

// The options esbuild honours (target, useDefineForClassFields, esModuleInterop...) come from the
// tsconfig.json that tsc checks with, so both read the source the same way.
const SELF_PATH = fileURLToPath(import.meta.url);
const TSCONFIG = readFileSync(path.join(path.dirname(SELF_PATH), '../../tsconfig.json'), 'utf8');
const { compilerOptions } = JSON.parse(TSCONFIG);

// Jest caches transformed files by this key: a change of this file, of tsconfig.json or of
// esbuild's version must not reuse output made by the old one.
const SELF = createHash('sha1')
  .update(readFileSync(SELF_PATH))
  .update(TSCONFIG)
  .update(version)
  .digest('hex');

export default {
  getCacheKey(source, filename) {
    return createHash('sha1')
      .update(SELF)
      .update(filename)
      .update('\0')
      .update(source)
      .digest('hex');
  },
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      sourcesContent: false,
      sourcefile: filename,
      tsconfigRaw: { compilerOptions },
      // As tsc does for module commonjs: `await import(x)` becomes a require() in a promise. Jest
      // runs CommonJS and refuses a real dynamic import without --experimental-vm-modules.
      supported: { 'dynamic-import': false },
    });
    return { code, map };
  },
};
