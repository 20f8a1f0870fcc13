import { readEndpointBehaviour } from '../behaviour/read-endpoints';
import { REAL_WORLDS } from '../support/fixture-world';

// test/behaviour/read-endpoints.ts over the real backends; test/fast/behaviour.test.ts runs it over the in-memory ones.

describe.each(REAL_WORLDS)('%s', (_world, start) => readEndpointBehaviour(start));
