// The app's runtime libraries as ONE file for Jest's workers, built once per lock file.
//
// Why: Jest gives every test file a fresh module registry, so each file loads the app's libraries
// again, one module at a time through Jest's own require (resolution, a wrapper, a vm.Script per
// module). The app pulls in about 1,000 modules from node_modules (550 of them the OpenSearch
// client's, which loads every API namespace at once): 0.25-0.3 s of CPU per test file after the
// first in a worker. The same libraries bundled by esbuild are one module: the OpenSearch client
// took 4-5 ms per file instead of 67-93 ms, express 14-17 ms instead of 30-40 (docs/testing.md).
//
// The bundle holds each library once, behind a getter (esbuild keeps each package's own wrapper,
// so a library is evaluated only when first required, as Node would), and each library's entry
// file is replaced by a small file that returns the bundle's export for it: libraries that share a
// dependency (zod, used by the app and the MCP server) share one copy, as they do in node_modules.
// The code is the packages' own, inlined as Node would load it (whitespace and syntax minified,
// names kept); the child processes' bundles (compiled-src.ts) do the same. A library missing from
// the list still loads from node_modules, only slower.

const { createHash } = require('node:crypto');
const {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

/** Every bare specifier src/ imports at load time (the AWS SDK, loaded on first use, left out). */
const SPECIFIERS = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/server/validators/ajv',
  '@opensearch-project/opensearch',
  '@opensearch-project/opensearch/aws',
  'express',
  'ioredis',
  'jose',
  'pg',
  'pino',
  'prom-client',
  'rate-limiter-flexible',
  'zod',
];

/** The file name of a specifier's stand-in. */
function fileOf(specifier) {
  return `${specifier.replace(/[@/]/g, '_')}.js`;
}

/** The folder of the installed libraries' bundle, built first when this lock file has none. */
function vendorDir() {
  const key = createHash('sha1')
    .update(readFileSync(path.join(ROOT, 'package-lock.json')))
    .update(readFileSync(__filename))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(ROOT, '.cache', 'jest-vendor', key);
  if (!existsSync(dir)) build(dir);
  return dir;
}

/**
 * Each library's entry file, as Node resolves it from the project's root, to its stand-in. A
 * require that Node would answer with another copy (the MCP client's own jose 6, say, where the app
 * has jose 5) resolves to something else and is left alone: the stand-in replaces exactly the file
 * it bundles.
 */
let standIns;
function standInOf(resolved) {
  if (!standIns) {
    const dir = vendorDir();
    standIns = new Map(
      SPECIFIERS.map((s) => [require.resolve(s, { paths: [ROOT] }), path.join(dir, fileOf(s))]),
    );
  }
  return standIns.get(resolved) ?? resolved;
}

/** Jest's resolver: its own answer, with a bundled library's entry swapped for the stand-in. */
function resolve(request, options) {
  return standInOf(options.defaultResolver(request, options));
}

function build(dir) {
  const { buildSync } = require('esbuild');
  // The bundles of other lock files are stale (about 3.5 MB each).
  rmSync(path.dirname(dir), { recursive: true, force: true });
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const getters = SPECIFIERS.map(
    (s) => `  get ${JSON.stringify(s)}() { return require(${JSON.stringify(s)}); },`,
  );
  buildSync({
    stdin: {
      contents: `module.exports = {\n${getters.join('\n')}\n};\n`,
      resolveDir: ROOT,
      sourcefile: 'vendor-entry.js',
    },
    outfile: path.join(temp, 'vendor.js'),
    bundle: true,
    // The AWS SDK is loaded on first use, from node_modules, as in production; pg's optional native
    // binding is never installed.
    external: ['@aws-sdk/*', 'pg-native'],
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  });
  for (const s of SPECIFIERS) {
    writeFileSync(
      path.join(temp, fileOf(s)),
      `module.exports = require('./vendor.js')[${JSON.stringify(s)}];\n`,
    );
  }
  try {
    mkdirSync(path.dirname(dir), { recursive: true });
    renameSync(temp, dir);
  } catch (err) {
    // Another run built the same bundle first: theirs is as good.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
}

module.exports = resolve;
// jest.config.js builds the bundle once, before the workers start, so that they never race to.
module.exports.vendorDir = vendorDir;
module.exports.SPECIFIERS = SPECIFIERS;
