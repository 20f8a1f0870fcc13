import { countFacetBehaviour } from '../behaviour/count-facets';
import { REAL_WORLDS } from '../support/fixture-world';

// test/behaviour/count-facets.ts over the real backends; test/fast/behaviour.test.ts runs it over the in-memory ones.

describe.each(REAL_WORLDS)('%s', (_world, start) => countFacetBehaviour(start));
