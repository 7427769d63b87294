/**
 * A signed zone's delegation in its parent, when the user holds that parent here too: which
 * parent (the closest enclosing zone of theirs), what NS and DS it has at the child's name,
 * and the one change set that publishes the child's DS there (RFC 4035 §2.4: a DS stands
 * beside the NS of a delegation, so the child's NS set comes along when the parent has none).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request, requestAll } from '../../lib/api-client';
import type { DnsRecord, Domain, RRsetPatch } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { getDomain } from './get-domain';
import { domainKeys } from '../../lib/domain-keys';

export interface ParentDelegation {
  /** The parent zone, hosted here under the same account. */
  parent: string;
  /** The child's name relative to the parent. */
  name: string;
  ns: string[];
  ds: string[];
}

/** The DS record contents the child's keys call for, as the parent stores them (`12345 13 2 ABCD…`). */
export const childDs = (child: Domain): string[] => (child.ds_records ?? []).map((d) => `${d.key_tag} ${d.algorithm} ${d.digest_type} ${d.digest}`);

/** Whether the parent's DS set is exactly the child's. */
export const dsInSync = (child: Domain, at: ParentDelegation): boolean => {
  const want = childDs(child);
  return want.length === at.ds.length && want.every((d) => at.ds.includes(d));
};

/** The closest enclosing zone of the user's, and its records at the child's name; null when they hold none. */
export async function getParentDelegation(child: string, signal?: AbortSignal): Promise<ParentDelegation | null> {
  const labels = child.split('.');
  // Zone names have two labels or more: the candidates are the child's ancestors down to those.
  for (let i = 1; labels.length - i >= 2; i++) {
    const parent = labels.slice(i).join('.');
    try {
      await getDomain(parent, signal);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) continue;
      throw e;
    }
    const name = labels.slice(0, i).join('.');
    const records = (await requestAll<DnsRecord>(bff.records(parent), { name }, signal)).filter((r) => r.name === name);
    const of = (type: string) => records.filter((r) => r.record_type === type).map((r) => r.content);
    return { parent, name, ns: of('NS'), ds: of('DS') };
  }
  return null;
}

export const parentDelegationQuery = (child: string) => queryOptions({ queryKey: domainKeys.parentDelegation(child), queryFn: ({ signal }) => getParentDelegation(child, signal) });

export const useParentDelegation = (child: string, enabled: boolean) => useQuery({ ...parentDelegationQuery(child), enabled });

/**
 * Publishes the child's DS set in the parent as one change set: the DS RRset replaced by the
 * child's (during a rollover both keys, after it the new one alone), and the child's apex NS
 * set added first when the parent does not delegate the name yet.
 */
export async function addDsToParent(child: Domain, at: ParentDelegation): Promise<void> {
  const rrsets: RRsetPatch['rrsets'] = [];
  if (at.ns.length === 0) {
    const ns = await requestAll<DnsRecord>(bff.records(child.name), { name: '@', record_type: 'NS' });
    rrsets.push({ name: at.name, record_type: 'NS', changetype: 'REPLACE', records: ns.map((r) => r.content), ...(ns[0] ? { ttl: ns[0].ttl } : {}) });
  }
  rrsets.push({ name: at.name, record_type: 'DS', changetype: 'REPLACE', records: childDs(child) });
  const body: RRsetPatch = { rrsets, comment: `DS of ${child.name} from its DNSSEC settings` };
  await request('PATCH', bff.rrsets(at.parent), { body });
}

export function useAddDsToParent(child: Domain) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (at: ParentDelegation) => addDsToParent(child, at),
    onSuccess: (_r, at) => {
      // The parent's serial, records and history moved; so did what this card shows.
      void qc.invalidateQueries({ queryKey: domainKeys.detail(at.parent) });
      void qc.invalidateQueries({ queryKey: domainKeys.parentDelegation(child.name) });
    },
  });
}
