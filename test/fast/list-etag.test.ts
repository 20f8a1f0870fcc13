import { FIXTURE } from '../support/read-fixture';
import { startFastApp, type FastApp } from './support/fast-app';

// contract §13: a list page's entity tag is REST's ETag. An MCP reply carries none, so the service
// does not hash an MCP page for one (the tag covers every record's digest: work on each call).

let app: FastApp;
beforeAll(async () => {
  app = await startFastApp(FIXTURE);
});
afterAll(() => app.close());

it('a list page has an entity tag for REST and none for a tool call', async () => {
  const { auth, reads } = app.capabilities;
  const { key } = app.reader();
  const caller = {
    auth: await auth.authenticate({ 'x-api-key': key }, '127.0.0.1', { allowBearer: false }),
    marketplaceVerified: false,
  };
  const rest = await reads.list(
    { ...caller, requestId: 'etag-rest' },
    { from: 'rest', query: { limit: '3' } },
  );
  const tool = await reads.list(
    { ...caller, requestId: 'etag-tool' },
    { from: 'tool', args: { limit: 3 } },
  );
  if (!rest.ok || !tool.ok) throw new Error('both lists should be served');
  expect(rest.etag).toMatch(/^W\/"/);
  expect(tool.etag).toBeUndefined();
  // The same page either way.
  expect(tool.body.data.map((r) => r.id)).toEqual(rest.body.data.map((r) => r.id));
});
