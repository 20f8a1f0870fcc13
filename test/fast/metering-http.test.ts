import { meteringBehaviour } from '../behaviour/metering-http';
import { MEMORY } from '../support/worlds';

// test/behaviour/metering-http.ts over the in-memory backends; the integration project runs it over the real ones.

describe.each(MEMORY)('%s', (_world, start) => meteringBehaviour(start));
