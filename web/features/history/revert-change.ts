/**
 * Reverting a change set: first a dry run shows the change set that would be applied; the
 * revert itself is sent with that preview's serial as If-Match, so what is applied is exactly
 * what the user saw (a zone changed meanwhile answers 412 and the preview is fetched again).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { ChangeSet, Revert } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { zoneScope } from '../../lib/zone-serial';
import { ipKeys } from '../../lib/ip-keys';

/** Why a change set cannot be reverted at all, or null (the server checks the rest: 409). */
export function revertRefusal(cs: Pick<ChangeSet, 'serial_before' | 'added_count' | 'removed_count' | 'settings'>): string | null {
  if (cs.serial_before === 0) return 'Zone created';
  if ('dnssec_keys' in cs.settings) return 'Key rollovers cannot be reverted';
  if (cs.added_count + cs.removed_count === 0 && Object.keys(cs.settings).length === 0) return 'Nothing to revert';
  return null;
}

export const revertChange = (domain: string, id: number, body: Revert, opts: { dryRun?: boolean; ifMatch?: number } = {}) =>
  requestWrite<ChangeSet>('POST', bff.revert(domain, id), { body, query: { dry_run: opts.dryRun ? 'true' : undefined }, ifMatch: opts.ifMatch });

/** The change set a revert would apply (id null); its `serial_before` is the zone's serial now. */
export const revertPreviewQuery = (domain: string, id: number) =>
  queryOptions({
    queryKey: domainKeys.revertPreview(domain, id),
    queryFn: async () => (await revertChange(domain, id, {}, { dryRun: true })).data,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

export const useRevertPreview = (domain: string, id: number | null) => useQuery({ ...revertPreviewQuery(domain, id ?? 0), enabled: id !== null });

export function useRevertChange(domain: string) {
  const qc = useQueryClient();
  return useMutation({
    scope: zoneScope(domain),
    mutationFn: ({ id, comment, serial }: { id: number; comment: string; serial: number }) => revertChange(domain, id, comment.trim() ? { comment: comment.trim() } : {}, { ifMatch: serial }),
    // Everything of this zone may have changed: its records, settings, serial and history.
    // (Not the open preview: asked again, it would describe reverting the revert's target anew.)
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: domainKeys.detail(domain), predicate: (q) => q.queryKey[3] !== 'revert-preview' });
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      void qc.invalidateQueries({ queryKey: ipKeys.usage });
    },
  });
}
