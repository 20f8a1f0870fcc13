import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { quickstart } from '../../clients/typescript/example';
import { fixtureWorld } from '../support/fixture-world';
import type { TestContext } from '../support/harness';
import { expected, idsOf } from '../support/read-fixture';
import { newReader, type Reader } from '../support/read-http';

// The typed client: the committed types are what openapi-typescript makes of
// the served document, and the README's openapi-fetch example runs against a live server.

let ctx: TestContext;
let reader: Reader;

beforeAll(async () => ({ ctx, reader } = await fixtureWorld()));
afterAll(() => ctx.close());

const ROOT = path.join(__dirname, '..', '..');
/** Runs a tool of node_modules/.bin from the repository root: `ok` on success, else its output. */
const run = (bin: string, args: string[], ok: string) =>
  promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', bin), args, { cwd: ROOT }).then(
    () => ok,
    (err: { stdout?: string; stderr?: string }) =>
      `${err.stdout ?? ''}${err.stderr ?? String(err)}`,
  );

it('clients/typescript/schema.ts is generated from the served document, unchanged', async () => {
  const check = await run(
    'tsx',
    ['scripts/gen-client.ts', '--from', `${ctx.baseUrl}/v1/openapi.json`, '--check'],
    'up to date',
  );
  // On failure: the document changed; run `npm run gen:client` and commit the result.
  expect(check).toBe('up to date');
});

// The generated types are typed (limit: 3, level: ['senior', 'staff']), and the quickstart
// compiles as a strict client project would build it (strict, noUncheckedIndexedAccess,
// exactOptionalPropertyTypes). clients/typescript/typed-query.ts also holds @ts-expect-error lines
// that fail the compile should a parameter loosen back to text.
it('the quickstart and the typed queries compile under a strict client tsconfig', async () => {
  // Incremental, its build info in the ignored cache: a warm run checks only what changed.
  const result = await run(
    'tsc',
    [
      '-p',
      'clients/typescript/tsconfig.json',
      '--incremental',
      '--tsBuildInfoFile',
      '.cache/tsc/typed-client.tsbuildinfo',
    ],
    'compiles',
  );
  expect(result).toBe('compiles');
});

it("the README's quickstart lists with typed filters, follows the cursor, counts and fetches one", async () => {
  const want = expected({ level: 'senior,staff', remote: 'true' });
  expect(want.length).toBeGreaterThan(3); // so the example follows the cursor at least once
  const result = await quickstart(ctx.baseUrl, reader.key);
  expect(idsOf(result.listed)).toEqual(idsOf(want));
  expect(result.count).toBe(want.length);
  expect(result.detail?.id).toBe(want[0]?.id);
  expect(result.detail).toEqual(result.listed[0]);
});

// The quickstart is run with the demo key, on the Free plan's 2 requests a second: it threw
// rate_limit_exceeded after a few pages. It waits Retry-After now, and stops after maxPages.
it('the quickstart runs on the Free plan: it waits out 429s, and walks at most maxPages pages', async () => {
  const free = await newReader(ctx.deps, { plan: 'free', rps_override: null });
  // Two requests a second: the first two calls use this second's, the count waits out a 429.
  const want = expected({ level: 'senior,staff', remote: 'true' });
  expect(want.length).toBeGreaterThan(3); // so that one page of 3 stops before the end
  const result = await quickstart(ctx.baseUrl, free.key, 1);
  expect(idsOf(result.listed)).toEqual(idsOf(want).slice(0, 3));
  expect(result.count).toBe(want.length);
  expect(result.detail?.id).toBe(want[0]?.id);
});
