import { readEndpointBehaviour } from '../behaviour/read-endpoints';
import { MEMORY_WORLDS } from '../support/worlds';

// test/behaviour/read-endpoints.ts over the in-memory backends; the integration project runs it over the real ones.

describe.each(MEMORY_WORLDS)('%s', (_world, start) => readEndpointBehaviour(start));
