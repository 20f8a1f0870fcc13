import type { Opportunity } from '../../src/domain/record';
import type { Taxonomy } from '../../src/domain/taxonomy';
import type { AccountInput } from '../../src/store/account-repo';
import type { MemoryAccountInput } from '../../src/store/memory-accounts';
import { startFastApp } from '../fast/support/fast-app';
import { FIXTURE } from './read-fixture';
import { ROOMY_READER, type Reader } from './factories';

// The worlds a behaviour suite (test/behaviour/) runs over: the real app over in-memory
// capabilities (here, no services: the fast project) or over Postgres, OpenSearch and Redis
// (fixture-world.ts: the integration project). A suite sees only what both share: the app's base
// URL, a reader with room to work, and FIXTURE stored and indexed.

/** The app over some records, and what a suite may ask of its backends. */
export interface World {
  baseUrl: string;
  taxonomy: Taxonomy;
  /** An account (ROOMY_READER unless told) and its key. */
  newReader(account?: AccountInput): Promise<Reader>;
  /** An account exactly as told (Free, the plan's own limits, unless told) and its key. */
  account(input: AccountInput): Promise<Reader>;
  /** Records delivered to (and so charged to) an account this period, by its ledger. */
  delivered(accountId: string): Promise<number>;
  /** Stores and indexes records (one import and sync), as `import` does. */
  put(records: readonly Opportunity[]): Promise<void>;
  /** Deletes records (tombstones in the change feed) and syncs the index, as `delete` does. */
  remove(ids: readonly string[]): Promise<RemoveReport>;
  close(): Promise<void>;
}

/** What `delete` reports (service/delete-records.ts). */
export interface RemoveReport {
  ok: boolean;
  deleted: string[];
  unknown: string[];
}

export type StartWorld = (records: readonly Opportunity[]) => Promise<World>;

/** `records` in the in-memory index, served by the real app. */
export const memoryWorld: StartWorld = async (records) => {
  const app = await startFastApp(records);
  return {
    baseUrl: app.baseUrl,
    taxonomy: app.deps.taxonomy,
    newReader: async (account = {}) => app.reader({ ...ROOMY_READER, ...account }),
    account: async (input) => {
      const created = app.world.accounts.createAccount(input as MemoryAccountInput);
      return { accountId: created.id, key: app.world.accounts.createKey(created.id).key };
    },
    delivered: async (accountId) => (await app.world.meter.snapshot({ accountId })).used,
    put: async (more) => app.world.index.put(more),
    remove: async (ids) => {
      const found = await Promise.all(ids.map((id) => app.world.index.find(id)));
      const deleted = ids.filter((_, i) => found[i] !== null);
      const unknown = ids.filter((_, i) => found[i] === null);
      app.world.index.remove(deleted);
      return { ok: unknown.length === 0, deleted, unknown };
    },
    close: () => app.close(),
  };
};

/** Worlds over any records, as `describe.each` takes them in the fast project. */
export const MEMORY: [string, StartWorld][] = [['in-memory backends', memoryWorld]];

export interface FixtureWorld {
  baseUrl: string;
  reader: Reader;
  /** Another reader (ROOMY_READER), e.g. one whose ledger is still empty. */
  newReader(): Promise<Reader>;
  /** Deletes records from the store and brings the index in line, as `delete` does. */
  remove(ids: readonly string[]): Promise<RemoveReport>;
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
export const memoryFixtureWorld: StartFixtureWorld = () => fixtureWorldOf(memoryWorld);

/** FIXTURE in a world, with a reader. */
export async function fixtureWorldOf(start: StartWorld): Promise<FixtureWorld> {
  const world = await start(FIXTURE);
  const reader = await world.newReader();
  return {
    baseUrl: world.baseUrl,
    reader,
    newReader: () => world.newReader(),
    remove: (ids) => world.remove(ids),
    close: () => world.close(),
  };
}

/** The table `describe.each` takes in the fast project. */
export const MEMORY_WORLDS: [string, StartFixtureWorld][] = [
  ['in-memory backends', memoryFixtureWorld],
];
