/**
 * DNSSEC on/off: turning it on happens at once (the switch moves, and moves back with the
 * server's message if the change fails); turning it off first asks for confirmation, since
 * a DS still at the parent makes the unsigned zone fail validation for every resolver.
 */
import { useState } from 'react';
import type { Domain } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { DsRecords } from './ds-records';
import { useUpdateDomain } from './update-domain';
import { isStale } from '../../lib/zone-serial';
import '../../ui/switch.css';

export function DnssecSwitch({ domain }: { domain: Domain }) {
  const update = useUpdateDomain(domain.name, { optimistic: true });
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const on = domain.dnssec_enabled;
  const change = (enable: boolean) =>
    update.mutate(
      { dnssec_enabled: enable },
      {
        onSuccess: (d) => toast('success', d.dnssec_enabled ? 'DNSSEC enabled: the zone is signed online' : 'DNSSEC disabled'),
        // A stale editor (412) is explained by the conflict banner instead.
        onError: (e) => {
          if (!isStale(e)) toast('error', `Could not change DNSSEC: ${e.message}`);
        },
      },
    );
  const toggle = () => (on ? setConfirming(true) : change(true));
  return (
    <>
      <div className="switch-row">
        <button type="button" role="switch" aria-checked={on} aria-labelledby="dnssec-label" aria-describedby="dnssec-help" className="switch" onClick={toggle} disabled={update.isPending}>
          <span className="switch-thumb" />
        </button>
        <div>
          <span id="dnssec-label" className="strong">
            DNSSEC {on ? 'on' : 'off'}
          </span>
          <p id="dnssec-help" className="muted small">
            {on
              ? 'Answers are signed online with the keys the policy below sets. Give the DS record to your registrar to complete the chain of trust.'
              : 'Sign this zone online, with the keys the policy below sets (ECDSA P-256 unless you choose otherwise).'}
          </p>
        </div>
      </div>
      <DsRecords domain={domain} />
      <ConfirmDialog
        open={confirming}
        title={`Turn off DNSSEC for ${domain.name}?`}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          change(false);
        }}
        confirmLabel="Turn off DNSSEC"
      >
        <Alert tone="warning" title="Remove the DS record at your registrar first">
          While the parent zone still publishes a DS record for {domain.name}, validating resolvers reject its unsigned answers: the domain stops resolving for their users. Remove the DS, wait until
          its TTL has passed (often a day or two), then turn DNSSEC off.
        </Alert>
        <p>Turning it off deletes the zone's signing key; turning it on again makes a new key with a new DS record.</p>
      </ConfirmDialog>
    </>
  );
}
