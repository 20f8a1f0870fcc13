import { mcpBehaviour } from '../behaviour/mcp';
import { MEMORY } from '../support/worlds';

// test/behaviour/mcp.ts over the in-memory backends; the integration project runs it over the real ones.

describe.each(MEMORY)('%s', (_world, start) => mcpBehaviour(start));
