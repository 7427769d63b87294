/**
 * The "before real use" items with their state on this server, and for zones still on other name
 * servers, a move of each set to NAMESERVERS (confirmed first: every zone of the set gets a change).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Readiness, ReadinessItem } from '../../lib/api-types';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { useMoveNameservers } from './move-nameservers';
import { READINESS_WORDS } from './readiness-words';
import './setup.css';

function StateBadge({ item }: { item: ReadinessItem }) {
  if (item.ok) return <Badge tone="success">Set</Badge>;
  return item.critical ? <Badge tone="danger">Before real use</Badge> : <Badge tone="warning">Recommended</Badge>;
}

function NameserverMoves({ readiness, nameservers }: { readiness: Readiness; nameservers: string }) {
  const move = useMoveNameservers();
  const toast = useToast();
  const [asked, setAsked] = useState<{ nameservers: string[]; zones: number } | null>(null);
  if (readiness.other_nameservers.length === 0) return null;
  const zonesWord = (n: number) => `${n} zone${n === 1 ? '' : 's'}`;
  return (
    <>
      <ul className="readiness-moves" aria-label="Zones on other name servers">
        {readiness.other_nameservers.map((set) => {
          const from = set.nameservers.join(', ') || 'no NS records';
          return (
            <li key={from}>
              <span>
                {zonesWord(set.zones)} on <code>{from}</code>
              </span>
              <button type="button" className="btn btn-small" onClick={() => setAsked(set)}>
                Move {zonesWord(set.zones)} from {from}
              </button>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={asked !== null}
        title="Move zones to other name servers"
        confirmLabel="Move zones"
        pendingLabel="Moving…"
        tone="primary"
        pending={move.isPending}
        error={move.error?.message}
        onCancel={() => setAsked(null)}
        onConfirm={() =>
          asked &&
          move.mutate(asked.nameservers, {
            onSuccess: (out) => {
              setAsked(null);
              toast(
                out.failed.length ? 'error' : 'success',
                `Moved ${zonesWord(out.moved)} to ${nameservers}${out.failed.length ? `; ${zonesWord(out.failed.length)} failed: ${out.failed.map((f) => f.name).join(', ')}` : ''}`,
              );
            },
          })
        }
      >
        <p>
          Every zone whose apex NS set is <code>{asked?.nameservers.join(', ')}</code> gets <code>{nameservers}</code> instead: one change each, with a new serial, in its history, and its secondaries
          are notified. Before the parent zones point at the new name servers, the new ones must answer for the zones.
        </p>
      </ConfirmDialog>
    </>
  );
}

export function ReadinessList({ readiness }: { readiness: Readiness }) {
  const nameservers = readiness.items.find((i) => i.key === 'nameservers')?.value ?? 'NAMESERVERS';
  return (
    <ul className="readiness-list">
      {readiness.items.map((item) => {
        const words = READINESS_WORDS[item.key];
        return (
          <li key={item.key} className="readiness-item" data-key={item.key} aria-label={words.title}>
            <div>
              <StateBadge item={item} />
            </div>
            <div>
              <h2>{words.title}</h2>
              <p>
                Now: <code>{item.value}</code>
              </p>
              {item.ok ? null : <p className="muted">{words.todo}</p>}
              {item.key === 'admin_password' && !item.ok ? <Link to={routes.account}>Change it on the Account page</Link> : null}
              {item.key === 'zones_nameservers' ? <NameserverMoves readiness={readiness} nameservers={nameservers} /> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A dismissible note for administrators while something "before real use" is unset (the domains page shows it). */
export function SetupNote({ readiness, onDismiss }: { readiness: Readiness; onDismiss: () => void }) {
  const open = readiness.items.filter((i) => i.critical && !i.ok);
  if (open.length === 0) return null;
  return (
    <Alert tone="warning" title="Before real use">
      <p>
        Still to set on this server: {open.map((i) => READINESS_WORDS[i.key].title).join(', ')}. <Link to={routes.setup}>See what to set</Link>
      </p>
      <button type="button" className="btn btn-small" onClick={onDismiss}>
        Dismiss
      </button>
    </Alert>
  );
}

/** Where the note's dismissal is kept: in this browser, until the list of what is unset changes. */
export const dismissalKey = (readiness: Readiness) =>
  `zonedeck.setup-note.${readiness.items
    .filter((i) => i.critical && !i.ok)
    .map((i) => i.key)
    .join(',')}`;
