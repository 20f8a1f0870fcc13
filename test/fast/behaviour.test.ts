import { changeFeedBehaviour } from '../behaviour/change-feed';
import { countFacetBehaviour } from '../behaviour/count-facets';
import { mcpBehaviour } from '../behaviour/mcp';
import { meteringBehaviour } from '../behaviour/metering-http';
import { readEndpointBehaviour } from '../behaviour/read-endpoints';
import { readFilterBehaviour } from '../behaviour/read-filters';
import { MEMORY, MEMORY_WORLDS } from '../support/worlds';

// The behaviour suites of test/behaviour/ over the in-memory backends; the integration project
// runs each over the real ones (test/integration/<suite>.test.ts). One file, not one per suite:
// each test file loads the app's modules afresh, about a second of CPU apiece.

describe.each(MEMORY_WORLDS)('%s, FIXTURE', (_world, start) => {
  describe('read filters', () => readFilterBehaviour(start));
  describe('count facets', () => countFacetBehaviour(start));
  describe('read endpoints', () => readEndpointBehaviour(start));
});

describe.each(MEMORY)('%s', (_world, start) => {
  describe('metering over HTTP', () => meteringBehaviour(start));
  describe('change feed', () => changeFeedBehaviour(start));
  describe('MCP through the SDK client', () => mcpBehaviour(start));
});
