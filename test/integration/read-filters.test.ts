import { readFilterBehaviour } from '../behaviour/read-filters';
import { REAL_WORLDS } from '../support/fixture-world';

// test/behaviour/read-filters.ts over the real backends; test/fast/behaviour.test.ts runs it over the in-memory ones.

describe.each(REAL_WORLDS)('%s', (_world, start) => readFilterBehaviour(start));
