import { changeFeedBehaviour } from '../behaviour/change-feed';
import { REAL } from '../support/fixture-world';

// test/behaviour/change-feed.ts over the real backends; test/fast/behaviour.test.ts runs it over the in-memory ones.

describe.each(REAL)('%s', (_world, start) => changeFeedBehaviour(start));
