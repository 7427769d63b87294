/**
 * Zones (SPEC.md "domains"): create with SOA defaults and the apex NS set, partial update
 * of SOA timers and DNSSEC, delete. Every change bumps the serial in the same transaction.
 */
import { isInZone, normalizeZoneName, APEX } from '../core/domain-name';
import { Conflict, NotFound } from '../core/errors';
import { nextSerial, SOA_DEFAULTS, SOA_FIELDS, soaErrors, type SoaField, type SoaTimers } from '../core/soa';
import type { DomainRow, Page, Repos, Store, Window } from '../store/types';
import type { ZoneEvents } from './events';
import { FieldCheck } from './rule-fields';

export interface ZoneSettings extends Partial<SoaTimers> {
  dnssec_enabled?: boolean;
}

export interface ZoneDefaults {
  nameservers: string[];
  /** TTL of the apex NS set the service manages. */
  nsTtl: number;
}

/** Bumps serial and updated_at of a zone inside the caller's transaction. */
export async function touchZone(tx: Repos, zone: DomainRow, now = new Date()): Promise<DomainRow> {
  return tx.domains.update(zone.id, { serial_number: nextSerial(zone.serial_number, now), updated_at: now.toISOString() });
}

export function createZones(store: Store, events: ZoneEvents, defaults: ZoneDefaults) {
  /** The user's zone by name; another user's zone is NotFound exactly like a missing one. */
  async function owned(userId: number, name: string, repos: Repos = store): Promise<DomainRow> {
    let normalized: string;
    try {
      normalized = normalizeZoneName(name);
    } catch {
      throw new NotFound(`no domain named ${name}`);
    }
    const zone = await repos.domains.byName(normalized);
    if (!zone || zone.user_id !== userId) throw new NotFound(`no domain named ${normalized}`);
    return zone;
  }

  function timers(check: FieldCheck, current: SoaTimers, patch: ZoneSettings): SoaTimers {
    const merged = { ...current };
    const changed = new Set<SoaField>();
    for (const f of SOA_FIELDS) {
      if (patch[f] !== undefined) {
        merged[f] = patch[f]!;
        changed.add(f);
      }
    }
    for (const [field, message] of Object.entries(soaErrors(merged, changed))) check.fail(field, message!);
    return merged;
  }

  return {
    owned,

    page: (userId: number, w: Window, search?: string): Promise<Page<DomainRow>> => store.domains.page(userId, w, search),

    async create(userId: number, input: { name: string } & ZoneSettings): Promise<DomainRow> {
      const check = new FieldCheck();
      const name = check.run('name', () => normalizeZoneName(input.name));
      const soa = timers(check, SOA_DEFAULTS, input);
      check.done();
      const zone = await store.transaction(async (tx) => {
        const existing = await tx.domains.byName(name!);
        if (existing) {
          throw new Conflict(`${name} already exists`, { name: existing.user_id === userId ? 'you already manage this domain' : 'is already managed by another account' });
        }
        const foreign = (await tx.domains.related(name!)).find((d) => d.user_id !== userId);
        if (foreign) {
          const how = isInZone(name!, foreign.name) ? 'lies inside' : 'contains';
          throw new Conflict(`${name} ${how} ${foreign.name}, which another account manages`, { name: `${how} a domain managed by another account` });
        }
        const now = new Date();
        const at = now.toISOString();
        const row = await tx.domains.insert({
          user_id: userId,
          name: name!,
          serial_number: nextSerial(0, now),
          ...soa,
          dnssec_enabled: input.dnssec_enabled ?? false,
          delegated: false,
          created_at: at,
          updated_at: at,
        });
        for (const ns of defaults.nameservers) {
          await tx.records.insert({ domain_id: row.id, name: APEX, record_type: 'NS', content: ns, ttl: defaults.nsTtl, created_at: at, updated_at: at });
        }
        return row;
      });
      events.emit({ kind: 'zone-upserted', domain: zone });
      return zone;
    },

    /** Partial update of SOA timers and DNSSEC; a no-op patch changes nothing, not even the serial. */
    async update(userId: number, name: string, patch: ZoneSettings): Promise<DomainRow> {
      const result = await store.transaction(async (tx) => {
        const zone = await tx.domains.lock((await owned(userId, name, tx)).id);
        const check = new FieldCheck();
        const soa = timers(check, zone, patch);
        check.done();
        const dnssec = patch.dnssec_enabled ?? zone.dnssec_enabled;
        const changed = SOA_FIELDS.some((f) => soa[f] !== zone[f]) || dnssec !== zone.dnssec_enabled;
        if (!changed) return { zone, changed };
        const now = new Date();
        const updated = await tx.domains.update(zone.id, {
          ...soa,
          dnssec_enabled: dnssec,
          serial_number: nextSerial(zone.serial_number, now),
          updated_at: now.toISOString(),
        });
        return { zone: updated, changed };
      });
      if (result.changed) events.emit({ kind: 'zone-upserted', domain: result.zone });
      return result.zone;
    },

    async remove(userId: number, name: string): Promise<void> {
      const zone = await store.transaction(async (tx) => {
        const z = await owned(userId, name, tx);
        await tx.domains.delete(z.id);
        return z;
      });
      events.emit({ kind: 'zone-deleted', domain: zone });
    },
  };
}

export type Zones = ReturnType<typeof createZones>;

