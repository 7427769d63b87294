/**
 * Importing a master file into a zone: a dry run first shows the change set
 * the import would apply; the import itself is sent with that preview's serial as If-Match,
 * so what is applied is exactly what the user saw (a zone changed meanwhile answers 412).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { ZoneImportResult } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { zoneScope } from '../../lib/zone-serial';
import { ipKeys } from '../../lib/ip-keys';

/** replace: the zone holds exactly the file's records (the apex NS set excepted); merge: they are added. */
export type ImportMode = 'replace' | 'merge';

/** What a preview was made of, and so what Apply sends. */
export interface ImportDraft {
  text: string;
  mode: ImportMode;
}

export const importZone = (domain: string, { text, mode }: ImportDraft, opts: { dryRun?: boolean; ifMatch?: number } = {}) =>
  requestWrite<ZoneImportResult>('POST', bff.zoneFile(domain), {
    text: { type: 'text/dns; charset=utf-8', data: text },
    query: { mode: mode === 'merge' ? 'merge' : undefined, dry_run: opts.dryRun ? 'true' : undefined },
    ifMatch: opts.ifMatch,
  });

/** The dry run: the change set the import would apply (`id` null) and what the file held that is not taken. */
export const usePreviewImport = (domain: string) => useMutation({ mutationFn: async (draft: ImportDraft) => (await importZone(domain, draft, { dryRun: true })).data });

export function useImportZone(domain: string) {
  const qc = useQueryClient();
  return useMutation({
    scope: zoneScope(domain),
    mutationFn: async ({ draft, serial }: { draft: ImportDraft; serial: number }) => (await importZone(domain, draft, { ifMatch: serial })).data,
    // An import may change every record and setting of the zone: refresh all of it by the prefix.
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: domainKeys.detail(domain) });
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      void qc.invalidateQueries({ queryKey: ipKeys.usage });
    },
  });
}
