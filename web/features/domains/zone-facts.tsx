/** The editor's facts about a zone under its name: who holds it, its serial, delegation and times. */
import type { ReactNode } from 'react';
import type { Domain } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Badge } from '../../ui/badge';
import type { ZoneAccess } from './zone-access';
import { DelegationBadge } from './delegation-badge';

/** `template` is the fact about the zone's template, which the templates feature tells. */
export function ZoneFacts({ domain: d, access, template }: { domain: Domain; access: ZoneAccess; template?: ReactNode }) {
  return (
    <dl className="facts">
      {access.badge ? (
        <div>
          <dt>Owner</dt>
          <dd>
            <Badge tone="info" title={access.records ? undefined : 'You can read this zone, not change it'}>
              {access.badge}
            </Badge>
          </dd>
        </div>
      ) : null}
      {d.kind === 'secondary' ? (
        <div>
          <dt>Kind</dt>
          <dd>
            <Badge title={`Copied by zone transfer from ${d.primaries.join(', ')}`}>Secondary</Badge>
          </dd>
        </div>
      ) : null}
      {template}
      <div>
        <dt>Serial</dt>
        <dd className="mono" data-testid="serial">
          {d.serial_number}
        </dd>
      </div>
      <div>
        <dt>Delegation</dt>
        <dd>
          <DelegationBadge domain={d} />
        </dd>
      </div>
      <div>
        <dt>Updated</dt>
        <dd>
          <time dateTime={d.updated_at} title={fullTime(d.updated_at)}>
            {timeAgo(d.updated_at)}
          </time>
        </dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>
          <time dateTime={d.created_at}>{fullTime(d.created_at)}</time>
        </dd>
      </div>
    </dl>
  );
}
