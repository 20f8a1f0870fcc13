import { countFacetBehaviour } from '../behaviour/count-facets';
import { MEMORY_WORLDS } from '../support/worlds';

// test/behaviour/count-facets.ts over the in-memory backends; the integration project runs it over the real ones.

describe.each(MEMORY_WORLDS)('%s', (_world, start) => countFacetBehaviour(start));
