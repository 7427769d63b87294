/**
 * "Someone else changed this zone": any editor write answered 412 (a stale If-Match) is
 * reported here, once for the whole editor, so the page can say who changed the zone and
 * offer to reload while the forms keep what the user typed. Outside the editor nothing
 * listens and a report is only a "no".
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { domainKeys } from '../lib/domain-keys';
import { isStale, loadedSerial } from '../lib/zone-serial';

export interface ZoneConflict {
  /** The serial the editor had loaded when the write was refused. */
  since: number | undefined;
}

interface ZoneConflictValue {
  conflict: ZoneConflict | null;
  /**
   * True (and remembered) when `e` is a 412 from a stale write; `since` is the serial the
   * write was made against when that is not the editor's loaded one (an import's preview).
   */
  report: (e: unknown, since?: number) => boolean;
  clear: () => void;
}

const ZoneConflictContext = createContext<ZoneConflictValue>({ conflict: null, report: isStale, clear: () => {} });

export function ZoneConflictProvider({ zone, children }: { zone: string; children: ReactNode }) {
  const qc = useQueryClient();
  const [conflict, setConflict] = useState<ZoneConflict | null>(null);
  const report = useCallback(
    (e: unknown, since?: number) => {
      if (!isStale(e)) return false;
      // Who changed it is in the newest change sets: fetch them fresh.
      void qc.invalidateQueries({ queryKey: domainKeys.history(zone) });
      setConflict((c) => c ?? { since: since ?? loadedSerial(qc, zone) });
      return true;
    },
    [qc, zone],
  );
  const clear = useCallback(() => setConflict(null), []);
  const value = useMemo(() => ({ conflict, report, clear }), [conflict, report, clear]);
  return <ZoneConflictContext.Provider value={value}>{children}</ZoneConflictContext.Provider>;
}

export const useZoneConflict = () => useContext(ZoneConflictContext);
