/** DNSSEC on/off: the switch moves at once and moves back, with the server's message, if the change fails. */
import type { Domain } from '../../lib/api-types';
import { useToast } from '../../ui/toast';
import { useUpdateDomain } from './update-domain';

export function DnssecSwitch({ domain }: { domain: Domain }) {
  const update = useUpdateDomain(domain.name, { optimistic: true });
  const toast = useToast();
  const on = domain.dnssec_enabled;
  const toggle = () =>
    update.mutate(
      { dnssec_enabled: !on },
      {
        onSuccess: (d) => toast('success', d.dnssec_enabled ? 'DNSSEC enabled: the zone is signed online' : 'DNSSEC disabled'),
        onError: (e) => toast('error', `Could not change DNSSEC: ${e.message}`),
      },
    );
  return (
    <div className="switch-row">
      <button type="button" role="switch" aria-checked={on} aria-labelledby="dnssec-label" aria-describedby="dnssec-help" className="switch" onClick={toggle} disabled={update.isPending}>
        <span className="switch-thumb" />
      </button>
      <div>
        <span id="dnssec-label" className="strong">
          DNSSEC {on ? 'on' : 'off'}
        </span>
        <p id="dnssec-help" className="muted small">
          {on ? 'Answers are signed online (ECDSA P-256, algorithm 13). Give the DS record to your registrar to complete the chain of trust.' : 'Sign this zone online with ECDSA P-256 (algorithm 13).'}
        </p>
      </div>
    </div>
  );
}
