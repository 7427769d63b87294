/** The IP addresses and ranges registered to a user. */
import { parseIpRange, type IpRange } from '../../core/ip-range';
import { Conflict, Invalid, NotFound, RuleError } from '../../core/errors';
import type { IpRow, Page, ServiceStore, Window } from '../../store/types';
import { ReadCache } from '../changes/read-cache';

export type IpView = IpRange & { id: number; active: boolean };

/** Ranges already described: parsing IPv6 text costs more than the rest of a list request. */
const described = new Map<string, IpRange>();

function describe(address: string, cidr: number): IpRange {
  const key = `${address}/${cidr}`;
  let range = described.get(key);
  if (!range) {
    range = parseIpRange(key);
    if (described.size >= 50_000) described.clear();
    described.set(key, range);
  }
  return range;
}

/** The IP record of a stored range: first/last/family computed from address/cidr. */
export function ipView(row: IpRow): IpView {
  const range = describe(row.address, row.cidr);
  return { id: row.id, address: range.address, active: row.active, cidr: range.cidr, ipv4: range.ipv4, ipv6: range.ipv6, first: range.first, last: range.last };
}

export function createIps(store: ServiceStore) {
  /** Pages of a user's IPs: read on every GET /ips, written only by an administrator. */
  const pages = new ReadCache<Page<IpView>>(store);
  return {
    page: (userId: number, w: Window): Promise<Page<IpView>> =>
      pages.get(`${userId}/${w.offset}/${w.limit}`, async () => {
        const page = await store.ips.page(userId, w);
        return { rows: page.rows.map(ipView), total: page.total };
      }),

    async all(userId: number): Promise<IpView[]> {
      return (await store.ips.listByUser(userId)).map(ipView);
    },

    async add(userId: number, text: string, active = true): Promise<IpView> {
      let range: IpRange;
      try {
        range = parseIpRange(text);
      } catch (e) {
        if (e instanceof RuleError) throw Invalid.field('address', e.message);
        throw e;
      }
      const added = await store.transaction(async (tx) => {
        if (await tx.ips.find(userId, range.address, range.cidr)) {
          throw new Conflict(`${range.address}/${range.cidr} is already registered`, { address: 'is already registered' });
        }
        return ipView(await tx.ips.insert({ user_id: userId, address: range.address, cidr: range.cidr, active, created_at: new Date().toISOString() }));
      });
      // After the commit: a page read while it ran cannot stay cached.
      pages.invalidate();
      return added;
    },

    async remove(id: number): Promise<void> {
      const deleted = await store.ips.delete(id);
      pages.invalidate();
      if (!deleted) throw new NotFound(`no IP record with id ${id}`);
    },
  };
}

export type Ips = ReturnType<typeof createIps>;
