/** "Start a rollover now": the server makes every step itself; the answer is the view with the rollover begun. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { DnssecView, Rollover } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { bff } from '../../lib/paths';

export type RolloverChoice = Exclude<Rollover['kind'], 'algorithm'>;

export const startRollover = (name: string, kind?: RolloverChoice) => request<DnssecView>('POST', bff.dnssecRollover(name), { body: kind ? { kind } : {} });

export function useStartRollover(name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (kind?: RolloverChoice) => startRollover(name, kind),
    onSuccess: (view) => {
      qc.setQueryData(domainKeys.dnssec(name), view);
      void qc.invalidateQueries({ queryKey: domainKeys.history(name) });
    },
  });
}
