import { readFilterBehaviour } from '../behaviour/read-filters';
import { MEMORY_WORLDS } from '../support/worlds';

// test/behaviour/read-filters.ts over the in-memory backends; the integration project runs it over the real ones.

describe.each(MEMORY_WORLDS)('%s', (_world, start) => readFilterBehaviour(start));
