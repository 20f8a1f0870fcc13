/** @type {import('jest').Config} */
// Jest only strips types (type checking is `npm run typecheck`), with esbuild through a small local
// transformer: no TypeScript language service per worker as ts-jest builds (docs/testing.md).
const transform = { '^.+\\.ts$': '<rootDir>/test/support/esbuild-jest.mjs' };

// The app's libraries load from one bundle in the workers, not module by module
// (test/support/vendor-resolver.cjs): built here, once, before any worker starts.
require('./test/support/vendor-resolver.cjs').vendorDir();
const resolver = '<rootDir>/test/support/vendor-resolver.cjs';

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      resolver,
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      // The real app over in-memory capabilities (docs/architecture.md); no services, no globalSetup.
      displayName: 'fast',
      testEnvironment: 'node',
      transform,
      resolver,
      testMatch: ['<rootDir>/test/fast/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      resolver,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
  // Four workers on the 2 cores: an integration suite spends much of its time waiting (on
  // Postgres, OpenSearch, child processes, the browser), and the extra workers fill those waits.
  // Back to back on the AMD machine of 2026-11-27, jest alone: 119.7 s with 4 against 133.6 s with
  // 3, then 130.7 s with 4 against 138.7 s with 3 in the other order; 6 workers took 131.7 s. (On
  // the Intel machine of the session before, 4 took 193 s against 177 s with 3 while the load rose:
  // docs/testing.md, Suite time.) The unit and fast projects alone never wait and run fastest with
  // one worker per core: their npm scripts pass --maxWorkers=2.
  maxWorkers: 4,
  // Integration tests start processes (CLI, built server, browser) and talk to real services. On a
  // loaded 2-core machine one CLI child process takes 15 s, so a minute was too tight; a hang still
  // ends the run. The unit tests never come close.
  testTimeout: 180_000,
};
