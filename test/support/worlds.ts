import { startFastApp } from '../fast/support/fast-app';
import { FIXTURE } from './read-fixture';
import type { Reader } from './factories';

// The worlds a behaviour suite (test/behaviour/) runs over: the real app over in-memory
// capabilities (here, no services: the fast project) or over Postgres, OpenSearch and Redis
// (fixture-world.ts: the integration project). A suite sees only what both share: the app's base
// URL, a reader with room to work, and FIXTURE stored and indexed.

export interface FixtureWorld {
  baseUrl: string;
  reader: Reader;
  /** Another reader (ROOMY_READER), e.g. one whose ledger is still empty. */
  newReader(): Promise<Reader>;
  /** Deletes records from the store and brings the index in line, as `delete` does. */
  remove(ids: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export type StartFixtureWorld = () => Promise<FixtureWorld>;

/**
 * The world of a behaviour suite: started before its tests, closed after them. The returned object
 * reads the started world, so a suite can hold it from its first line.
 */
export function useWorld(start: StartFixtureWorld): FixtureWorld {
  let current: FixtureWorld | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(() => current?.close());
  const live = (): FixtureWorld => {
    if (!current) throw new Error('the world is started in beforeAll');
    return current;
  };
  return {
    get baseUrl() {
      return live().baseUrl;
    },
    get reader() {
      return live().reader;
    },
    newReader: () => live().newReader(),
    remove: (ids) => live().remove(ids),
    close: () => live().close(),
  };
}

/** FIXTURE in the in-memory index, served by the real app. */
export const memoryFixtureWorld: StartFixtureWorld = async () => {
  const app = await startFastApp(FIXTURE);
  return {
    baseUrl: app.baseUrl,
    reader: app.reader(),
    newReader: async () => app.reader(),
    remove: async (ids) => app.world.index.remove(ids),
    close: () => app.close(),
  };
};

/** The table `describe.each` takes in the fast project. */
export const MEMORY_WORLDS: [string, StartFixtureWorld][] = [
  ['in-memory backends', memoryFixtureWorld],
];
