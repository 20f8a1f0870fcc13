import { recordText } from '../domain/record-text';
import type { Opportunity } from '../domain/record';
import { Lru } from '../infra/lru';

/**
 * The records this process served lately, by id, each with its stored text and digest
 * (domain/record-text.ts). A list page asks the engine for its hits' positions and digests only
 * (doc values, mapping 6), which spares the engine reading and decompressing a stored document per
 * hit and this process parsing 60 KB of escaped text per page; the texts come from here when the
 * digest the engine holds is the digest kept, and from one multi-get for the rest. A text is
 * served only under its own SHA-256 digest, so it is exactly what the index holds: a record
 * changed or reindexed since is a miss, never a stale answer.
 */
export class RecordTexts {
  private readonly held: Lru<string, Opportunity>;

  /** `maxChars`: the bound on the texts' total length (about a byte per character for most). */
  constructor(maxChars: number) {
    this.held = new Lru(maxChars, (record) => recordText(record).json.length);
  }

  /** The record `id` whose stored digest is `digest`, if kept. */
  get(id: string, digest: string): Opportunity | undefined {
    const record = this.held.get(id);
    return record !== undefined && recordText(record).digest === digest ? record : undefined;
  }

  remember(record: Opportunity): void {
    this.held.set(record.id, record);
  }

  get size(): number {
    return this.held.size;
  }
}
