/**
 * Edits to a zone's cached record list, for optimistic updates and for folding in the
 * server's answer. A record's TTL is its RRset's (RFC 2181 §5.2), so a new TTL is applied
 * to every record of the same name and type, as the server does.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { DnsRecord } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { ipKeys } from '../../lib/ip-keys';

export const recordMutationKey = (domain: string) => ['records', domain] as const;

export function patchRecords(qc: QueryClient, domain: string, fn: (list: DnsRecord[]) => DnsRecord[]): void {
  qc.setQueryData<DnsRecord[]>(domainKeys.records(domain), (list) => (list ? fn(list) : list));
}

/** Puts `rec` in place of the record with id `replaces` (or appends it), and syncs its RRset's TTL. */
export const upsert =
  (rec: DnsRecord, replaces = rec.id) =>
  (list: DnsRecord[]) => {
    let found = false;
    const out = list.map((r) => {
      if (r.id === replaces) {
        found = true;
        return rec;
      }
      return r.name === rec.name && r.record_type === rec.record_type && r.ttl !== rec.ttl ? { ...r, ttl: rec.ttl } : r;
    });
    if (!found) out.push(rec);
    return out;
  };

export const remove = (id: number) => (list: DnsRecord[]) => list.filter((r) => r.id !== id);

/**
 * What else a record change makes stale: the zone's history, the domain lists, IP usage for
 * addresses. Not the zone itself: its serial came with the write's answer (zone-serial.ts).
 */
export function afterRecordChange(qc: QueryClient, domain: string, types: string[]): void {
  // A change made while the list was still loading cancelled that load: load it again.
  if (!qc.getQueryData(domainKeys.records(domain))) void qc.invalidateQueries({ queryKey: domainKeys.records(domain), exact: true });
  void qc.invalidateQueries({ queryKey: domainKeys.history(domain) });
  void qc.invalidateQueries({ queryKey: domainKeys.lists });
  if (types.some((t) => t === 'A' || t === 'AAAA')) void qc.invalidateQueries({ queryKey: ipKeys.usage });
}
