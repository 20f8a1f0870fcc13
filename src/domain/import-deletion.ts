import { z } from 'zod';

// An `import` line that removes a record (contract §22.10, §12): the shape of a
// change-feed tombstone, so a mirror's feed can be replayed line by line. changed_at is accepted
// for that reason and ignored: the tombstone this store writes is timed by the import itself.

export const ImportDeletion = z.strictObject({
  id: z.uuid(),
  deleted: z.literal(true),
  changed_at: z.iso.datetime({ offset: true }).optional(),
});

export type ImportDeletion = z.infer<typeof ImportDeletion>;

/** A line is a deletion when its object names `deleted` (a record has no such field). */
export const isDeletionLine = (json: unknown): boolean =>
  typeof json === 'object' && json !== null && !Array.isArray(json) && 'deleted' in json;
