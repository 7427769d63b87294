/**
 * On a signed zone's DNSSEC card, when the user also holds its parent zone here: the DS in one
 * click, instead of copying it into the parent's records by hand. Says when the parent already
 * publishes exactly the child's DS, and what the click will add otherwise (the NS delegation
 * too when the parent has none, since a DS stands only beside one).
 */
import type { Domain } from '../../lib/api-types';
import { useToast } from '../../ui/toast';
import { dsInSync, useAddDsToParent, useParentDelegation } from './parent-delegation';

export function ParentDs({ domain }: { domain: Domain }) {
  const signed = domain.dnssec_enabled && (domain.ds_records?.length ?? 0) > 0;
  const delegation = useParentDelegation(domain.name, signed);
  const add = useAddDsToParent(domain);
  const toast = useToast();
  const at = delegation.data;
  if (!signed || !at) return null;

  const parentLabel = `${at.parent} (hosted here)`;
  if (dsInSync(domain, at)) {
    return (
      <p className="small" data-testid="parent-ds" role="status">
        ✓ {parentLabel} publishes this DS at {at.name}.{at.parent}: the chain of trust is complete within zonedeck.
      </p>
    );
  }
  const action = at.ds.length === 0 ? `Add DS to ${parentLabel}` : `Replace the DS in ${parentLabel}`;
  const click = () =>
    add.mutate(at, {
      onSuccess: () => toast('success', `The DS of ${domain.name} is published in ${at.parent}`),
      onError: (e) => toast('error', `Could not publish the DS in ${at.parent}: ${e.message}`),
    });
  return (
    <div className="card" data-testid="parent-ds" style={{ padding: '0.75rem', marginTop: '0.5rem' }}>
      <p className="small" style={{ marginTop: 0 }}>
        You also manage {at.parent} here.{' '}
        {at.ns.length === 0
          ? `One click delegates ${at.name}.${at.parent} to this zone's name servers and adds the DS beside the NS records, as one change in ${at.parent}.`
          : at.ds.length === 0
            ? `One click adds the DS beside the NS records of ${at.name}.${at.parent}.`
            : `${at.parent} holds a DS for ${at.name} that does not match this zone's keys; one click replaces it.`}
      </p>
      <button type="button" className="btn btn-primary" onClick={click} disabled={add.isPending} style={{ whiteSpace: 'normal', maxWidth: '100%', textAlign: 'left' }}>
        {add.isPending ? 'Publishing…' : action}
      </button>
    </div>
  );
}
