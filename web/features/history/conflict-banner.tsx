/**
 * What the editor shows when a write was refused because the zone changed since it was
 * loaded (412): who changed it, when and how, from the newest change sets, and a Reload that
 * fetches the zone anew. Forms keep what the user typed, so it can be saved again after.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { useZoneConflict } from '../../ui/zone-conflict';
import { changeSentence } from '../../lib/actor-words';
import { diffLines, missingLines, settingLines, shortLine } from '../../lib/change-lines';
import { useChanges } from './list-changes';
import type { ChangeSet } from '../../lib/api-types';
import '../../ui/alert.css';
import './history.css';

const SHOWN = 3;

/** "+ www A 192.0.2.9, - www A 192.0.2.1 and 4 more" */
function summary(cs: ChangeSet): string {
  const parts = [...settingLines(cs.settings), ...diffLines(cs).map(shortLine)];
  const more = parts.length - SHOWN + missingLines(cs);
  return parts.slice(0, SHOWN).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

export function ConflictBanner({ zone }: { zone: string }) {
  const { conflict, clear } = useZoneConflict();
  const qc = useQueryClient();
  const recent = useChanges(zone, { source: '', username: '', page: 1, perPage: 10 }, conflict !== null);
  const [reloading, setReloading] = useState(false);
  if (!conflict) return null;

  const newer = (recent.data?.items ?? []).filter((c) => conflict.since === undefined || c.serial_after > conflict.since);
  const latest = newer[0];
  const reload = async () => {
    setReloading(true);
    try {
      await qc.invalidateQueries({ queryKey: domainKeys.detail(zone) });
      clear();
    } finally {
      setReloading(false);
    }
  };

  return (
    <div className="alert alert-warning conflict-banner" role="alert" data-testid="zone-conflict">
      <strong className="alert-title">{zone} was changed by someone else since you loaded it</strong>
      <p>Your change was not saved, so nothing of theirs was overwritten.</p>
      {latest ? (
        <p className="conflict-who">
          {changeSentence(latest, zone)}
          {summary(latest) ? (
            <>
              : <code>{summary(latest)}</code>
            </>
          ) : null}
          {newer.length > 1 ? ` (and ${newer.length - 1} more change${newer.length > 2 ? 's' : ''} before that)` : ''}
        </p>
      ) : recent.isFetching ? (
        <p className="muted">Looking up who changed it…</p>
      ) : null}
      <p>Reload to see the zone as it is now; what you typed stays in its form, ready to save again.</p>
      <div className="conflict-actions">
        <button type="button" className="btn btn-primary" onClick={() => void reload()} disabled={reloading}>
          {reloading ? 'Reloading…' : 'Reload'}
        </button>
        <Link to={routes.history(zone)}>See the zone’s history</Link>
      </div>
    </div>
  );
}
