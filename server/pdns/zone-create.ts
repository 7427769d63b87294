/**
 * POST …/zones: a new zone, and the records the client gives with it (`rrsets`, or `zone`,
 * a zone file) as the zone's first change after its creation. `nameservers` and an apex NS
 * set are ignored: zonedeck puts NAMESERVERS there (PowerDNS clients send them anyway). An
 * SOA's timers become the zone's, as in a zone-file import (DESIGN.md §11); its names and
 * serial are zonedeck's. If the records are refused, the zone is removed again: a client
 * gets a zone with all of them or no zone.
 */
import { APEX, normalizeRecordName, normalizeZoneName } from '../core/domain-name';
import { Conflict, Invalid, RuleError } from '../core/errors';
import { parseZoneFile, zoneFileInvalid } from '../core/zone-file';
import type { Services } from '../services';
import type { WriteOptions } from '../services/change-sets';
import type { RRsetChange } from '../services/rrsets';
import type { ZoneSettings } from '../services/zones';
import type { DomainRow } from '../store/types';
import { PdnsError, unprocessable } from './errors';
import { asAbsolute, dotted } from './names';
import { clientError, translate, type Translated } from './rrset-changes';
import type { RRsetInput, ZoneInput } from './schemas';
import type { SoaIdentity } from './zone-view';

/** Zone kinds zonedeck can be: a primary. It serves the zone itself and NOTIFYs its secondaries. */
export function checkKind(kind: string | undefined): void {
  if (kind === undefined) return;
  if (!['native', 'master', 'primary'].includes(kind.toLowerCase())) {
    throw unprocessable(`kind '${kind}' is not supported: zonedeck is the primary of its zones (Native or Master); secondary and catalog zones are not`);
  }
}

/** Zone settings PowerDNS has and zonedeck cannot honour: refused rather than ignored. */
export function checkUnsupported(body: { masters?: string[]; nsec3param?: string; presigned?: boolean }): void {
  if (body.masters?.length) throw unprocessable('masters: zonedeck is the primary of its zones; it has no masters');
  if (body.nsec3param) throw unprocessable('nsec3param: zonedeck signs with NSEC and compact denial (RFC 9824), not NSEC3');
  if (body.presigned) throw unprocessable('presigned: zonedeck signs its zones itself');
}

const TIMERS = ['refresh_interval', 'retry_interval', 'expire_interval', 'minimum_ttl'] as const;

/** The timers of SOA content `mname rname serial refresh retry expire minimum`. */
function soaTimers(content: string, at: string): ZoneSettings {
  const f = content.trim().split(/\s+/);
  if (f.length !== 7 || !f.slice(2).every((n) => /^[0-9]{1,10}$/.test(n))) {
    throw unprocessable(`${at}: SOA content must be "mname rname serial refresh retry expire minimum", numbers in seconds`);
  }
  return Object.fromEntries(TIMERS.map((t, i) => [t, Number(f[3 + i])]));
}

/** The zone's records from a zone file, as REPLACE changes of whole RRsets. */
function fromZoneFile(text: string, zone: string): { settings: ZoneSettings; changes: RRsetChange[] } {
  const parsed = parseZoneFile(text, zone);
  if (parsed.errors.length > 0) {
    const e = zoneFileInvalid(parsed.errors);
    throw unprocessable(`zone: ${Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`).join('; ')}`);
  }
  const sets = new Map<string, RRsetChange>();
  for (const r of parsed.records) {
    const key = `${r.name} ${r.record_type}`;
    const set = sets.get(key) ?? { name: r.name, record_type: r.record_type, ttl: String(r.ttl), changetype: 'REPLACE' as const, records: [] };
    set.records!.push(r.content);
    sets.set(key, set);
  }
  const s = parsed.soa;
  const settings = s ? { refresh_interval: s.refresh, retry_interval: s.retry, expire_interval: s.expire, minimum_ttl: s.minimum } : {};
  return { settings, changes: [...sets.values()] };
}

/** Splits the client's RRsets: the SOA gives timers, the apex NS set is dropped, the rest are the zone's records. */
function fromRRsets(list: readonly RRsetInput[], zone: string): { settings: ZoneSettings; rrsets: RRsetInput[]; positions: number[] } {
  let settings: ZoneSettings = {};
  const rrsets: RRsetInput[] = [];
  const positions: number[] = [];
  list.forEach((rs, i) => {
    let name: string | null = null;
    try {
      name = normalizeRecordName(asAbsolute(rs.name), zone);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
    }
    const type = rs.type.trim().toUpperCase();
    if (name === APEX && type === 'SOA') {
      const soa = rs.records?.[0];
      if (soa) settings = soaTimers(soa.content, `rrsets.${i}.records.0`);
      return;
    }
    if (name === APEX && type === 'NS') return;
    // In a new zone every RRset is created, whatever changetype a client put on it.
    rrsets.push({ ...rs, changetype: 'REPLACE' });
    positions.push(i);
  });
  return { settings, rrsets, positions };
}

export async function createZone(services: Services, identity: SoaIdentity, userId: number, body: ZoneInput, opts: WriteOptions): Promise<DomainRow> {
  const { zones, store } = services;
  if (!body.name) throw unprocessable('name: must be given, e.g. "example.org."');
  checkKind(body.kind);
  checkUnsupported(body);
  if (body.rrsets?.length && body.zone) throw unprocessable('give either rrsets or zone (a zone file), not both');
  let zoneName: string;
  try {
    zoneName = normalizeZoneName(body.name);
  } catch (e) {
    if (e instanceof RuleError) throw unprocessable(`name: ${e.message}`);
    throw e;
  }
  const file = body.zone ? fromZoneFile(body.zone, zoneName) : null;
  const given = body.rrsets ? fromRRsets(body.rrsets, zoneName) : null;
  const settings = file?.settings ?? given?.settings ?? {};

  let zone: DomainRow;
  try {
    zone = await zones.create(userId, { name: zoneName, ...settings, dnssec_enabled: body.dnssec }, opts);
  } catch (e) {
    if (e instanceof Conflict) {
      const existing = await store.domains.byName(zoneName);
      throw new PdnsError(409, existing ? `Domain '${dotted(zoneName)}' already exists` : e.message);
    }
    if (e instanceof Invalid) throw unprocessable(Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`).join('; '));
    throw e;
  }
  if (!file?.changes.length && !given?.rrsets.length) return zone;

  try {
    let applied;
    if (file) {
      applied = await services.rrsets.patch(userId, zone.name, file.changes, opts).catch((e: unknown) => {
        throw e instanceof Invalid || e instanceof Conflict ? unprocessable(`zone: ${Object.entries(e.fields ?? {}).map(([k, v]) => `${k}: ${v}`).join('; ') || e.message}`) : e;
      });
    } else {
      const apexNs = (await store.records.atName(zone.id, APEX)).filter((r) => r.record_type === 'NS');
      const t: Translated = translate(given!.rrsets, { zone, apexNs, identity }, (k) => given!.positions[k]!);
      applied = await services.rrsets.patch(userId, zone.name, t.changes, opts).catch((e: unknown) => {
        throw clientError(e, t);
      });
    }
    return applied.zone;
  } catch (e) {
    await zones.remove(userId, zone.name).catch(() => {});
    throw e;
  }
}
