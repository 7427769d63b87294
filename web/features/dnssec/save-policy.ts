/**
 * Saves the zone's DNSSEC policy (a change set, sent with the loaded serial as If-Match like every
 * zone write), then reads the keys view again: a new algorithm or key setup on a signed zone has
 * started a rollover, and the form says what the server made of it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { DnssecPolicy, Domain, DnssecView } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { bff } from '../../lib/paths';
import { guardedWrite, zoneScope } from '../../lib/zone-serial';
import { useZoneConflict } from '../../ui/zone-conflict';
import { getDnssec } from './get-dnssec';

export function useSavePolicy(name: string) {
  const qc = useQueryClient();
  const { report } = useZoneConflict();
  return useMutation({
    scope: zoneScope(name),
    mutationFn: async (patch: Partial<DnssecPolicy>): Promise<{ domain: Domain; view: DnssecView }> => {
      const domain = await guardedWrite(qc, name, (ifMatch) => requestWrite<Domain>('PUT', bff.domain(name), { body: { dnssec_policy: patch }, ifMatch }));
      qc.setQueryData(domainKeys.detail(name), domain);
      const view = await getDnssec(name);
      qc.setQueryData(domainKeys.dnssec(name), view);
      return { domain, view };
    },
    onError: (e) => report(e),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      void qc.invalidateQueries({ queryKey: domainKeys.history(name) });
    },
  });
}
