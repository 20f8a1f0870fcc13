import { changeFeedBehaviour } from '../behaviour/change-feed';
import { MEMORY } from '../support/worlds';

// test/behaviour/change-feed.ts over the in-memory backends; the integration project runs it over the real ones.

describe.each(MEMORY)('%s', (_world, start) => changeFeedBehaviour(start));
