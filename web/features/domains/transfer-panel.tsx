/**
 * A secondary zone's Transfer panel: how following its primaries goes (state in words and colour,
 * serial, when it was last checked and last succeeded, when it is next checked and when it
 * expires, the last error verbatim), where it comes from (primaries, key), and "Retrieve now".
 */
import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { domainKeys } from '../../lib/domain-keys';
import type { Domain } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { useRetrieveZone } from './retrieve-zone';
import { transferStates } from './transfer-state';

function When({ iso, never = 'Never' }: { iso: string | null | undefined; never?: string }) {
  if (!iso) return <>{never}</>;
  return (
    <time dateTime={iso} title={fullTime(iso)}>
      {timeAgo(iso)} <span className="muted small">({fullTime(iso)})</span>
    </time>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A transfer that landed (the serial moved, however it was noticed) refreshes the records and History. */
function useFollowSerial(name: string, serial: number | null | undefined) {
  const qc = useQueryClient();
  useEffect(() => {
    if (serial == null) return;
    void qc.invalidateQueries({ queryKey: domainKeys.records(name) });
    void qc.invalidateQueries({ queryKey: domainKeys.history(name) });
  }, [qc, name, serial]);
}

export function TransferPanel({ domain, canRetrieve }: { domain: Domain; canRetrieve: boolean }) {
  const retrieve = useRetrieveZone(domain);
  useFollowSerial(domain.name, domain.transfer?.serial);
  const t = domain.transfer;
  const state = t ? transferStates[t.state] : undefined;
  return (
    <section className="card" aria-labelledby="transfer-title">
      <div className="card-header">
        <h2 id="transfer-title">Transfer</h2>
        {canRetrieve ? (
          <button type="button" className="btn btn-primary" onClick={() => retrieve.mutate()} disabled={retrieve.isPending}>
            {retrieve.isPending ? 'Retrieving…' : 'Retrieve now'}
          </button>
        ) : null}
      </div>
      {state ? (
        <p role="status">
          <Badge tone={state.tone}>{state.label}</Badge> {state.meaning}
        </p>
      ) : null}
      <dl className="transfer-facts">
        <Fact term="Serial">
          <span className="mono">{t?.serial ?? '—'}</span>
        </Fact>
        <Fact term="Last check">
          <When iso={t?.last_check} />
        </Fact>
        <Fact term="Last success">
          <When iso={t?.last_success} />
        </Fact>
        <Fact term="Next check">
          <When iso={t?.next_check} never="Not scheduled" />
        </Fact>
        <Fact term="Expires">
          <When iso={t?.expires_at} never="—" />
        </Fact>
        <Fact term="Primaries">
          <span className="mono">{domain.primaries.join(', ')}</span>
        </Fact>
        <Fact term="TSIG key">{domain.tsig_key ? <span className="mono">{domain.tsig_key}</span> : 'None (unsigned)'}</Fact>
      </dl>
      {t?.error ? (
        <div>
          <h3 className="small">Last error</h3>
          <pre className="transfer-error mono small">{t.error}</pre>
        </div>
      ) : null}
      {retrieve.error ? <Alert>{retrieve.error instanceof Error ? retrieve.error.message : String(retrieve.error)}</Alert> : null}
    </section>
  );
}
