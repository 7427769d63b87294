/**
 * The DS record(s) to hand to the registrar, each field with a copy button (registrars ask
 * for the whole record or for key tag, algorithm, digest type and digest separately), and
 * the DNSKEY for registries that take a key instead. Two records appear during a rollover.
 * When the parent zone is hosted here too, one click publishes the DS there (parent-ds.tsx).
 */
import type { Domain } from '../../lib/api-types';
import { useToast } from '../../ui/toast';
import { ParentDs } from './parent-ds';

const ALGORITHMS: Record<number, string> = { 13: 'ECDSA P-256 with SHA-256', 14: 'ECDSA P-384 with SHA-384', 15: 'Ed25519' };
const DIGESTS: Record<number, string> = { 2: 'SHA-256' };

function CopyButton({ text, label }: { text: string; label: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast('success', `${label} copied`);
    } catch {
      toast('error', `Could not copy: select the ${label.toLowerCase()} and copy it by hand`);
    }
  };
  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      Copy
    </button>
  );
}

function Field({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  return (
    <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'baseline' }}>
      <dt className="muted small" style={{ minWidth: '6.5rem' }}>
        {label}
      </dt>
      {/* A <div> in a <dl> holds only <dt> and <dd>: the copy button lives in the <dd>. */}
      <dd style={{ margin: 0, flex: 1, display: 'flex', gap: '0.5rem', alignItems: 'baseline' }}>
        <span className="mono" style={{ overflowWrap: 'anywhere', flex: 1 }}>
          {value}
        </span>
        {copyLabel ? <CopyButton text={value} label={copyLabel} /> : null}
      </dd>
    </div>
  );
}

export function DsRecords({ domain }: { domain: Domain }) {
  const records = domain.ds_records ?? [];
  if (!domain.dnssec_enabled || records.length === 0) return null;
  return (
    <div aria-labelledby="ds-title" data-testid="ds-records" style={{ marginTop: '1rem' }}>
      <h3 id="ds-title" className="strong small">
        DS record{records.length > 1 ? 's' : ''} for your registrar
      </h3>
      <p className="muted small">
        {records.length > 1
          ? 'A key rollover is in progress: the parent zone may list both DS records until the rollover is finished.'
          : 'Add this DS record at your registrar (or the parent zone) to complete the chain of trust.'}
      </p>
      {records.map((ds, i) => (
        <section key={ds.key_tag} aria-label={`DS record for key ${ds.key_tag}`} className="card" style={{ padding: '0.75rem', marginTop: '0.5rem' }}>
          <dl style={{ margin: 0, display: 'grid', gap: '0.35rem' }}>
            <Field label="DS record" value={ds.ds} copyLabel="DS record" />
            <Field label="Key tag" value={String(ds.key_tag)} copyLabel="Key tag" />
            <Field label="Algorithm" value={`${ds.algorithm} (${ALGORITHMS[ds.algorithm] ?? 'unknown'})`} />
            <Field label="Digest type" value={`${ds.digest_type} (${DIGESTS[ds.digest_type] ?? 'unknown'})`} />
            <Field label="Digest" value={ds.digest} copyLabel="Digest" />
            {domain.dnskey_records[i] ? <Field label="DNSKEY" value={domain.dnskey_records[i]!} copyLabel="DNSKEY record" /> : null}
          </dl>
        </section>
      ))}
      <ParentDs domain={domain} />
    </div>
  );
}
