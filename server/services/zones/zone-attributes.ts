/**
 * What PowerDNS clients set on a zone and read back: its attributes (account, SOA-EDIT-API,
 * catalog) and the comments on its RRsets. Nothing zonedeck serves depends on them, so they are
 * no change set; the PowerDNS API writes them here, after it has judged the credential.
 */
import type { DomainRow, RRsetComment, ServiceStore, ZoneAttributes } from '../../store/types';

/** One RRset's comments, to be set to exactly `comments` (empty: none). */
export interface CommentChange {
  name: string;
  record_type: string;
  comments: Array<Omit<RRsetComment, 'name' | 'record_type'>>;
}

export function createZoneAttributes(store: ServiceStore) {
  return {
    set: (zone: Pick<DomainRow, 'id'>, attributes: ZoneAttributes): Promise<void> => store.zoneAttributes.set(zone.id, attributes),

    /** Sets the comments of each listed RRset, all in one transaction. */
    async replaceComments(zone: Pick<DomainRow, 'id'>, changes: readonly CommentChange[]): Promise<void> {
      if (changes.length === 0) return;
      await store.transaction(async (tx) => {
        for (const c of changes) await tx.rrsetComments.replace(zone.id, c.name, c.record_type, c.comments);
      });
    },
  };
}

export type ZoneAttributesService = ReturnType<typeof createZoneAttributes>;
