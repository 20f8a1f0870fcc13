import { mcpBehaviour } from '../behaviour/mcp';
import { REAL } from '../support/fixture-world';

// test/behaviour/mcp.ts over the real backends; test/fast/behaviour.test.ts runs it over the in-memory ones.

describe.each(REAL)('%s', (_world, start) => mcpBehaviour(start));
