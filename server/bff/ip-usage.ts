/**
 * For each of a user's IPs, the A/AAAA records of the user's zones that point into it:
 * the cross-reference behind the IPs page. Read through the services, as the API would.
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

const ALL = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

export async function ipUsage(services: Services, userId: number): Promise<IpUsage[]> {
  const ips = await services.ips.all(userId);
  const usage = ips.map((ip) => ({ ip, out: { ip_id: ip.id, total: 0, records: [] as IpUsageRecord[] } }));
  if (ips.length === 0) return [];
  const zones = (await services.zones.page(userId, ALL)).rows;
  for (const zone of zones) {
    for (const type of ['A', 'AAAA'] as const) {
      const candidates = usage.filter(({ ip }) => (type === 'A' ? ip.ipv4 : ip.ipv6));
      if (candidates.length === 0) continue;
      const { page } = await services.records.page(userId, zone.name, { record_type: type }, ALL);
      for (const r of page.rows) {
        for (const { ip, out } of candidates) {
          if (!rangeContains(ip, r.content)) continue;
          out.total += 1;
          if (out.records.length < USAGE_LIST_LIMIT) {
            out.records.push({ domain: zone.name, id: r.id, name: r.name, fqdn: toFqdn(r.name, zone.name), record_type: type, content: r.content });
          }
        }
      }
    }
  }
  return usage.map((u) => u.out);
}
