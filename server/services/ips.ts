/** The IP addresses and ranges registered to a user (SPEC.md §2.1). */
import { parseIpRange, type IpRange } from '../core/ip-range';
import { Conflict, Invalid, NotFound, RuleError } from '../core/errors';
import type { IpRow, Page, Store, Window } from '../store/types';

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

/** The SPEC.md §2.1 record of a stored range: first/last/family computed from address/cidr. */
export function ipView(row: IpRow): IpView {
  const range = describe(row.address, row.cidr);
  return { id: row.id, address: range.address, active: row.active, cidr: range.cidr, ipv4: range.ipv4, ipv6: range.ipv6, first: range.first, last: range.last };
}

export function createIps(store: Store) {
  return {
    async page(userId: number, w: Window): Promise<Page<IpView>> {
      const page = await store.ips.page(userId, w);
      return { rows: page.rows.map(ipView), total: page.total };
    },

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
      return store.transaction(async (tx) => {
        if (await tx.ips.find(userId, range.address, range.cidr)) {
          throw new Conflict(`${range.address}/${range.cidr} is already registered`, { address: 'is already registered' });
        }
        return ipView(await tx.ips.insert({ user_id: userId, address: range.address, cidr: range.cidr, active, created_at: new Date().toISOString() }));
      });
    },

    async remove(id: number): Promise<void> {
      if (!(await store.ips.delete(id))) throw new NotFound(`no IP record with id ${id}`);
    },
  };
}

export type Ips = ReturnType<typeof createIps>;
