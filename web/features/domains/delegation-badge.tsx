/** A zone's delegation as the last check found it, or that no check has answered yet (none runs without RESOLVER). */
import type { Domain } from '../../lib/api-types';
import { Badge } from '../../ui/badge';

export function DelegationBadge({ domain }: { domain: Pick<Domain, 'delegation'> }) {
  if (domain.delegation === 'delegated') return <Badge tone="success">Delegated</Badge>;
  if (domain.delegation === 'not_delegated') {
    return (
      <Badge tone="warning" title="The parent zone does not list our name servers for this domain (yet)">
        Not delegated
      </Badge>
    );
  }
  return <Badge title="No delegation check has answered for this domain yet: the server checks only with RESOLVER set. Check from outside on the domain's page asks now.">Not checked</Badge>;
}
