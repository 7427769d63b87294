/**
 * RFC 2136 dynamic updates, once the DNS server has parsed the message and verified its TSIG:
 * the key must belong to the zone's owner and its scope admit the zone, the client and (per
 * record) the names and types; the prerequisites (§2.4, §3.2) are checked against the zone as
 * it is, inside the transaction; the update section (§2.5, §3.4) is applied in order to one
 * draft of the zone and written as ONE change set (source `rfc2136`, credential `tsig:<key>`).
 * Any failure leaves the zone untouched. The answer is an RCODE.
 */
import { APEX } from '../../core/domain-name';
import { ZonedeckError } from '../../core/errors';
import { RECORD_TYPE_BY_NAME } from '../../core/record-types';
import { roleOn } from '../zones/access';
import { allowsAddress, allowsZone } from '../../core/scope';
import type { ServiceStore } from '../../store/types';
import type { ChangeSets } from './change-sets';
import type { ZoneDraft } from './zone-draft';
import { bucketsFor } from '../buckets';
import type { BucketRate } from '../../store/types';

/** RFC 1035 §4.1.1, RFC 2136 §2.2. */
export const UPDATE_RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5, YXDOMAIN: 6, YXRRSET: 7, NXRRSET: 8, NOTAUTH: 9, NOTZONE: 10 } as const;

/**
 * One RR of the prerequisite or update section, as parsed: `name` relative to the zone (`@` the
 * apex), `type` a mnemonic (`TXT`, `ANY`, or `TYPE<n>` for one we do not know), `cls` the class
 * read as RFC 2136 does (the zone's, ANY or NONE), `content` canonical presentation form when
 * the RR carries rdata.
 */
export interface UpdateRR {
  name: string;
  type: string;
  cls: 'zone' | 'any' | 'none';
  ttl: number;
  content: string | null;
}

export interface UpdateRequest {
  /** The zone section's name, lower case, no trailing dot. */
  zone: string;
  prerequisites: UpdateRR[];
  updates: UpdateRR[];
  /** The name of the TSIG key that signed the message (already verified). */
  key: string;
  /** The client's address, for the key's allowed_ips. */
  address: string;
}

/** Stops the change set with this RCODE; nothing is written. */
class Refused extends Error {
  constructor(readonly rcode: number) {
    super(`dynamic update refused (RCODE ${rcode})`);
  }
}

/** Content in the registry's canonical form (the parser gives it so; a caller that did not is corrected, or refused). */
function canonical(list: UpdateRR[]): UpdateRR[] {
  return list.map((r) => {
    const def = RECORD_TYPE_BY_NAME.get(r.type);
    if (r.content === null || !def) return r;
    try {
      return { ...r, content: def.normalize(r.content) };
    } catch {
      throw new Refused(UPDATE_RCODE.REFUSED);
    }
  });
}

const isApexManaged = (name: string, type: string) => name === APEX && (type === 'SOA' || type === 'NS');

/** §3.2: the prerequisites, against the zone before the update. Throws Refused with the first failure's RCODE. */
function checkPrerequisites(draft: ZoneDraft, list: UpdateRR[]): void {
  // The apex always holds its SOA, which the store keeps as zone fields rather than records.
  // Judged on the zone as served: a disabled record is not there for a client of the DNS port.
  const types = (name: string) => [...draft.servedTypes(name), ...(name === APEX ? ['SOA'] : [])];
  const exact = new Map<string, { name: string; type: string; contents: Set<string> }>();
  for (const p of list) {
    if (p.cls === 'any' && p.type === 'ANY') {
      if (types(p.name).length === 0) throw new Refused(UPDATE_RCODE.NXDOMAIN); // §2.4.4 name is in use
    } else if (p.cls === 'any') {
      if (!types(p.name).includes(p.type)) throw new Refused(UPDATE_RCODE.NXRRSET); // §2.4.1 RRset exists
    } else if (p.cls === 'none' && p.type === 'ANY') {
      if (types(p.name).length > 0) throw new Refused(UPDATE_RCODE.YXDOMAIN); // §2.4.5 name is not in use
    } else if (p.cls === 'none') {
      if (types(p.name).includes(p.type)) throw new Refused(UPDATE_RCODE.YXRRSET); // §2.4.3 RRset does not exist
    } else {
      // §2.4.2 RRset exists (value dependent): gathered, then compared set by set.
      // Rdata we could not read (a type outside the registry) cannot match anything stored.
      if (p.content === null) throw new Refused(UPDATE_RCODE.NXRRSET);
      const key = `${p.name} ${p.type}`;
      const e = exact.get(key) ?? { name: p.name, type: p.type, contents: new Set<string>() };
      e.contents.add(p.content);
      exact.set(key, e);
    }
  }
  for (const e of exact.values()) {
    // The SOA is the service's: a value-dependent SOA prerequisite cannot be matched record by record.
    const current = new Set(
      e.type === 'SOA' && e.name === APEX
        ? []
        : draft
            .rrset(e.name, e.type)
            .filter((r) => !r.disabled)
            .map((r) => r.content),
    );
    if (current.size !== e.contents.size || [...e.contents].some((c) => !current.has(c))) throw new Refused(UPDATE_RCODE.NXRRSET);
  }
}

/** §3.4.2: the update section, in order, on the draft. */
function applyUpdates(draft: ZoneDraft, list: UpdateRR[]): void {
  for (const u of list) {
    if (u.cls === 'zone') {
      // The SOA is made by the service from the zone's fields and serial: an SOA add is ignored (§3.4.2.2 lets servers keep theirs).
      if (u.name === APEX && u.type === 'SOA') continue;
      if (!RECORD_TYPE_BY_NAME.has(u.type) || u.content === null) throw new Refused(UPDATE_RCODE.REFUSED);
      // One TTL per RRset (RFC 2181 §5.2): the record added sets it for the whole set.
      // Adding a record that is there disabled serves it again.
      draft.put(u.name, u.type, [...draft.rrset(u.name, u.type).filter((r) => r.content !== u.content), { content: u.content, ttl: u.ttl }], u.ttl);
    } else if (u.cls === 'any') {
      // §3.4.2.3: the apex SOA and NS sets are never deleted this way.
      const types = u.type === 'ANY' ? draft.types(u.name) : [u.type];
      for (const t of types) if (!isApexManaged(u.name, t) && RECORD_TYPE_BY_NAME.has(t)) draft.put(u.name, t, [], 0);
    } else {
      if (u.name === APEX && u.type === 'SOA') continue;
      if (!RECORD_TYPE_BY_NAME.has(u.type)) continue; // nothing of an unknown type is stored, so nothing to delete
      const current = draft.rrset(u.name, u.type);
      const kept = current.filter((r) => r.content !== u.content);
      if (kept.length !== current.length) draft.put(u.name, u.type, kept, current[0]!.ttl);
    }
  }
}

export function createDynamicUpdates(store: ServiceStore, changes: ChangeSets, rate: BucketRate | null = null) {
  // RATE_LIMIT_UPDATE: one bucket per key and one per zone, shared by every node on
  // PostgreSQL, taken before anything is read or built; REFUSED beyond.
  const take = rate ? bucketsFor(rate, store.sharedBuckets) : null;
  const allowed = async (key: string, zoneId: number): Promise<boolean> => {
    if (!take) return true;
    return (await take(`update-key:${key}`)) === 0 && (await take(`update-zone:${zoneId}`)) === 0;
  };
  return {
    /** Applies one verified update; answers its RCODE (NOERROR when applied). */
    async apply(req: UpdateRequest): Promise<number> {
      const key = await store.tsigKeys.byName(req.key);
      const zone = await store.domains.byName(req.zone);
      //A zone the key's owner may not reach, or outside the key's scope: REFUSED.
      const role = key && zone ? await roleOn(store, key.user_id, zone) : null;
      if (!key || !zone || !role) return UPDATE_RCODE.REFUSED;
      if (!allowsZone(key.scope, zone.name) || !allowsAddress(key.scope, req.address)) return UPDATE_RCODE.REFUSED;
      if (req.updates.length > 0 && (key.scope.read_only || role === 'viewer')) return UPDATE_RCODE.REFUSED;
      const owner = await store.users.byId(key.user_id);
      if (!(await allowed(key.name, zone.id))) return UPDATE_RCODE.REFUSED;
      try {
        // Canonical before the write lock; inside it the draft is only checked and edited.
        const prerequisites = canonical(req.prerequisites);
        const updates = canonical(req.updates);
        // The key's user, with their role on the zone judged again on the locked row (a zone gone meanwhile is NotFound: REFUSED).
        const actor = { username: owner?.username ?? '', userId: key.user_id, credential: `tsig:${key.name}`, scope: key.scope };
        await changes.update(zone, { source: 'rfc2136', actor }, async ({ draft }) => {
          await draft.load(new Set([...req.prerequisites, ...req.updates].map((r) => r.name)));
          checkPrerequisites(draft, prerequisites);
          applyUpdates(draft, updates);
        });
        return UPDATE_RCODE.NOERROR;
      } catch (e) {
        if (e instanceof Refused) return e.rcode;
        // Scope, §4 rules (CNAME exclusivity, the managed apex NS set), the record cap: the update is refused whole.
        // A database that does not answer or a full disk is no refusal: SERVFAIL, which the client tries again.
        if (e instanceof ZonedeckError && e.status < 500) return UPDATE_RCODE.REFUSED;
        throw e;
      }
    },
  };
}

export type DynamicUpdates = ReturnType<typeof createDynamicUpdates>;
