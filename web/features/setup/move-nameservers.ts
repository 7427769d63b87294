/** Moves the zones of one apex NS set to NAMESERVERS (one change set per zone, on the server). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { readinessKey } from './get-readiness';

export interface MoveOutcome {
  moved: number;
  failed: { name: string; error: string }[];
}

export const moveNameservers = (from: string[]) => request<MoveOutcome>('POST', bff.setupMoveNameservers, { body: { from } });

export function useMoveNameservers() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: moveNameservers,
    // The zones' NS sets and serials changed: the readiness list and any zone on screen are read again.
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: readinessKey });
      void qc.invalidateQueries({ queryKey: ['domains'] });
    },
  });
}
