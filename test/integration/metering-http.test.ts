import { meteringBehaviour } from '../behaviour/metering-http';
import { REAL } from '../support/fixture-world';

// test/behaviour/metering-http.ts over the real backends; test/fast/behaviour.test.ts runs it over the in-memory ones.

describe.each(REAL)('%s', (_world, start) => meteringBehaviour(start));
