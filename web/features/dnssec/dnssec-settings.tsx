/**
 * The DNSSEC card's policy and keys, under its on/off switch: the policy form, and for a signed
 * zone its keys, the rollover in progress as a timeline (asked again every few seconds while it
 * runs), warnings such as a parent that has not moved, and "Start a rollover now".
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { DnssecView } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { fullTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { ErrorState, LoadingState } from '../../ui/states';
import { useDnssec } from './get-dnssec';
import { KeyList } from './key-list';
import { PolicyForm } from './policy-form';
import { rolloverPending } from './policy-keys';
import { RolloverTimeline } from './rollover-timeline';
import { StartRolloverButton } from './start-rollover-button';
import './dnssec.css';

function KeysAndRollover({ name, view }: { name: string; view: DnssecView }) {
  return (
    <section aria-labelledby="dnssec-keys-title" className="dnssec-keys-section" data-testid="dnssec-keys">
      <h3 id="dnssec-keys-title">Keys and rollover</h3>
      {view.warnings.length > 0 ? (
        <Alert tone="warning" title="Needs your attention">
          <ul className="dnssec-warnings">
            {view.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <KeyList keys={view.keys} />
      {view.rollover ? (
        <RolloverTimeline rollover={view.rollover} />
      ) : rolloverPending(view) ? (
        <p className="small" role="status">
          The keys differ from the policy: the server starts an algorithm rollover to them in a moment, and its timeline shows here.
        </p>
      ) : (
        <p className="small" role="status">
          No rollover in progress.{' '}
          {view.next_rollover_at ? (
            <>
              The next one starts by itself on <time dateTime={view.next_rollover_at}>{fullTime(view.next_rollover_at)}</time>.
            </>
          ) : (
            'None is scheduled: the policy rolls no key by itself.'
          )}
        </p>
      )}
      <div className="form-actions">
        <StartRolloverButton name={name} policy={view.policy} disabled={view.rollover !== null} />
        {view.rollover ? <span className="muted small">One rollover at a time: this one must finish first.</span> : null}
      </div>
    </section>
  );
}

/** `version` changes with every write to the zone (its serial, DNSSEC on or off): the keys are read again then. */
export function DnssecSettings({ name, signed, version }: { name: string; signed: boolean; version: string }) {
  const q = useDnssec(name);
  const qc = useQueryClient();
  const first = useRef(version);
  useEffect(() => {
    if (first.current === version) return;
    first.current = version;
    void qc.invalidateQueries({ queryKey: domainKeys.dnssec(name), exact: true });
  }, [qc, name, version]);
  if (q.isPending) return <LoadingState label="Loading the DNSSEC keys…" />;
  if (q.isError) return <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the DNSSEC keys" />;
  const view = q.data;
  return (
    <div className="dnssec-settings">
      <PolicyForm name={name} view={view} />
      {signed && view.dnssec_enabled ? <KeysAndRollover name={name} view={view} /> : null}
    </div>
  );
}
