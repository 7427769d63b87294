/** The `data` of each event a webhook receives, from what its source knows. */
import type { ChangeSet } from '../changes/change-sets/types';

/** Records of each side a `zone.changed` body carries at most (an import's are in the zone's history, whole). */
export const CHANGE_RECORDS_LIMIT = 1000;

/** A change set as the history API shows it; a big one carries its first records of each side, its counts, and `truncated`. */
export function zoneChangedData(zone: string, change: ChangeSet) {
  const { added, removed, ...rest } = change;
  const truncated = added.length > CHANGE_RECORDS_LIMIT || removed.length > CHANGE_RECORDS_LIMIT;
  return {
    ...rest,
    zone,
    added: added.slice(0, CHANGE_RECORDS_LIMIT),
    removed: removed.slice(0, CHANGE_RECORDS_LIMIT),
    added_count: added.length,
    removed_count: removed.length,
    ...(truncated ? { truncated: true } : {}),
  };
}
