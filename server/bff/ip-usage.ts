/**
 * For each of a user's IPs, the A/AAAA records of the user's zones that point into it:
 * the cross-reference behind the IPs page. Paged through SQL (zones 1,000 at a time, each zone's
 * A and AAAA records 1,000 at a time on the records_type index), so memory and each query stay
 * bounded however much the user holds; the BFF's per-address rate limit bounds how often it runs.
 */
import { toFqdn } from '../core/domain-name';
import { rangeContains } from '../core/ip-range';
import type { Services } from '../services';

/** At most this many records are listed per IP; `total` still counts them all. */
export const USAGE_LIST_LIMIT = 50;

export interface IpUsageRecord {
  domain: string;
  id: number;
  name: string;
  fqdn: string;
  record_type: 'A' | 'AAAA';
  content: string;
}

export interface IpUsage {
  ip_id: number;
  total: number;
  records: IpUsageRecord[];
}

/** Rows read per query: the scan pages through SQL, so memory stays bounded whatever the user holds. */
const PAGE = 1000;

export async function ipUsage(services: Services, userId: number): Promise<IpUsage[]> {
  const ips = await services.ips.all(userId);
  const usage = ips.map((ip) => ({ ip, out: { ip_id: ip.id, total: 0, records: [] as IpUsageRecord[] } }));
  if (ips.length === 0) return [];
  const { store } = services;
  for (let offset = 0; ; offset += PAGE) {
    const zones = (await store.domains.page(userId, { offset, limit: PAGE })).rows;
    for (const zone of zones) {
      for (const type of ['A', 'AAAA'] as const) {
        const candidates = usage.filter(({ ip }) => (type === 'A' ? ip.ipv4 : ip.ipv6));
        if (candidates.length === 0) continue;
        for (let after: { name: string; id: number } | null = null; ;) {
          const rows = await store.records.ofType(zone.id, type, after, PAGE);
          for (const r of rows) {
            for (const { ip, out } of candidates) {
              if (!rangeContains(ip, r.content)) continue;
              out.total += 1;
              if (out.records.length < USAGE_LIST_LIMIT) {
                out.records.push({ domain: zone.name, id: r.id, name: r.name, fqdn: toFqdn(r.name, zone.name), record_type: type, content: r.content });
              }
            }
          }
          if (rows.length < PAGE) break;
          after = { name: rows.at(-1)!.name, id: rows.at(-1)!.id };
        }
      }
    }
    if (zones.length < PAGE) break;
  }
  return usage.map((u) => u.out);
}
