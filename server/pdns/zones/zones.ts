/**
 * The zone endpoints of the PowerDNS API (doc.powerdns.com/authoritative/http-api/zone.html),
 * each translated to zonedeck's services: list, create, read, metadata PUT, RRset PATCH (one
 * change set, source `pdns`), delete, NOTIFY and export.
 */
import { Hono, type Context } from 'hono';
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { NotFound, RuleError } from '../../core/errors';
import type { Services } from '../../services';
import { DEFAULT_ZONE_ATTRIBUTES, type DomainRow } from '../../store/types';
import type { PdnsEnv } from '../auth';
import { pathZone } from '../scope';
import { attributesOf, checkKind, checkUnsupported, createZone, fromRRsets, isSecondaryKind, type ZoneDefaults } from './zone-create';
import { unprocessable } from '../errors';
import { asAbsolute, dotted, zoneNameOfId } from '../names';
import { checkCommentScope, clientError, translate, writeComments } from './rrset-changes';
import { parseBody, PatchBody, ZoneIn, type RRsetInput } from '../schemas';
import { checkTsigKeyIds } from '../tsig-key-ids';
import { auditActor } from '../../http/audit-actor';
import { pdnsWrite } from '../write-options';
import { zoneDetail, zoneRRsets, zoneSummary, type SoaIdentity } from './zone-view';
import { bodyJson } from '../../http/body';

/** The SOA timers of a zone given whole (a PowerDNS zone carries no DNSSEC policy). */
const timersOf = <T extends { dnssec_policy?: unknown }>({ dnssec_policy: _none, ...timers }: T) => timers;

/** `true` (default) or `false`, as PowerDNS reads its boolean query parameters. */
function flag(c: Context, name: string, fallback: boolean): boolean {
  const v = c.req.query(name);
  if (v === undefined) return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw unprocessable(`'${name}' request parameter value '${v}' is not supported`);
}

export function zonesApi(services: Services, identity: SoaIdentity, defaults: ZoneDefaults = {}) {
  const { zones, store } = services;

  /** The user's zone an id names; another user's zone is 404 exactly like a missing one. */
  const zoneOf = async (c: Context<PdnsEnv>): Promise<DomainRow> => pathZone(c);
  /** The path's zone as a place for the write path, which reads it again in its transaction. */
  const placeOf = (c: Context<PdnsEnv>) => ({ zone: pathZone(c), base: APEX });

  /** The RRsets of a zone, all of them or those at `rrset_name` (and of `rrset_type`). */
  async function rrsetsOf(c: Context, zone: DomainRow) {
    const rawName = c.req.query('rrset_name');
    const type = c.req.query('rrset_type')?.toUpperCase();
    if (rawName === undefined) return zoneRRsets(zone, await store.records.byDomain(zone.id), identity, await store.rrsetComments.byDomain(zone.id));
    let name: string;
    try {
      name = normalizeRecordName(asAbsolute(rawName), zone.name);
    } catch (e) {
      if (e instanceof RuleError) return [];
      throw e;
    }
    // PowerDNS's include_disabled (default true) applies to a lookup of one name, as in its API.
    const records = (await store.records.atName(zone.id, name)).filter((r) => flag(c, 'include_disabled', true) || r.disabled !== 1);
    const sets = zoneRRsets(zone, records, identity, await store.rrsetComments.byDomain(zone.id, name));
    return sets.filter((s) => (s.type !== 'SOA' || name === APEX) && (type === undefined || s.type === type));
  }

  /** The stored TTL of each RRset an EXTEND with a `ttl` adds to (`name type`): translate() keeps one TTL per RRset. */
  async function extendedTtls(zone: DomainRow, list: readonly RRsetInput[]): Promise<Map<string, number>> {
    const names = new Set<string>();
    for (const rs of list) {
      if (rs.ttl === undefined || rs.changetype?.trim().toUpperCase() !== 'EXTEND') continue;
      try {
        names.add(normalizeRecordName(asAbsolute(rs.name), zone.name));
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
      }
    }
    const ttls = new Map<string, number>();
    for (const name of names) for (const r of await store.records.atName(zone.id, name)) ttls.set(`${r.name} ${r.record_type}`, r.ttl);
    return ttls;
  }

  /** The zone object of GET …/zones/:zone_id: RRsets unless `rrsets=false`, `record_count` (PowerDNS's, every record) when asked for or with the RRsets. */
  async function detail(c: Context<PdnsEnv>, zone: DomainRow) {
    const attributes = (await store.zoneAttributes.get([zone.id])).get(zone.id);
    const withRRsets = flag(c, 'rrsets', true);
    if (!withRRsets && !flag(c, 'record_count', false)) return zoneDetail(zone, undefined, attributes);
    const rrsets = await rrsetsOf(c, zone);
    const recordCount = rrsets.reduce((n, s) => n + s.records.length, 0);
    return { ...zoneDetail(zone, withRRsets ? rrsets : undefined, attributes), record_count: recordCount };
  }

  return new Hono<PdnsEnv>()
    .get('/zones', async (c) => {
      const { user, scope } = c.get('principal');
      // A token scoped to some zones lists only those, as GET /api/v1/domains does.
      const inScope = scope.zones?.length ? scope.zones : undefined;
      const only = c.req.query('zone');
      if (only !== undefined) {
        const zone = await zones.owned(user.id, zoneNameOfId(only)).catch((e: unknown) => {
          if (e instanceof NotFound) return null;
          throw e;
        });
        if (!zone || (inScope && !inScope.includes(zone.name))) return c.json([]);
        return c.json([zoneSummary(zone, (await store.zoneAttributes.get([zone.id])).get(zone.id))]);
      }
      const all: DomainRow[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = await zones.page(user.id, { offset, limit: 500 }, undefined, inScope);
        all.push(...page.rows);
        if (page.rows.length < 500) break;
      }
      const attributes = await store.zoneAttributes.get(all.map((z) => z.id));
      // `dnssec=false`: PowerDNS leaves out `dnssec` and `edited_serial` (its clients ask so for speed).
      const withDnssec = c.req.query('dnssec') !== 'false';
      return c.json(all.map((z) => zoneSummary(z, attributes.get(z.id), withDnssec)));
    })
    .post('/zones', async (c) => {
      const body = parseBody(ZoneIn, await bodyJson(c));
      const zone = await createZone(services, identity, c.get('principal').user.id, body, pdnsWrite(c), defaults);
      const rrsets = flag(c, 'rrsets', true) ? zoneRRsets(zone, await store.records.byDomain(zone.id), identity, await store.rrsetComments.byDomain(zone.id)) : undefined;
      return c.json(zoneDetail(zone, rrsets, (await store.zoneAttributes.get([zone.id])).get(zone.id)), 201);
    })
    .get('/zones/:zone_id', async (c) => c.json(await detail(c, await zoneOf(c))))
    .put('/zones/:zone_id', async (c) => {
      const body = parseBody(ZoneIn, await bodyJson(c));
      const zone = await zoneOf(c);
      checkKind(body.kind);
      if (body.kind !== undefined && isSecondaryKind(body.kind) !== (zone.kind === 'secondary'))
        throw unprocessable(`kind: ${dotted(zone.name)} is a ${zone.kind === 'secondary' ? 'Slave' : 'Native'} zone; its kind does not change`);
      checkUnsupported({ ...body, kind: zone.kind === 'secondary' ? 'Slave' : body.kind, masters: zone.kind === 'secondary' ? (body.masters ?? zone.primaries) : body.masters });
      if (zone.kind === 'secondary' && body.masters && body.masters.join() !== zone.primaries?.join())
        throw unprocessable('masters: a Slave zone keeps the masters it was made with; delete it and make it again to follow others');
      await checkTsigKeyIds(services, c.get('principal').user.id, zone.name, body, zone.kind === 'secondary');
      const attributes = attributesOf(body, (await store.zoneAttributes.get([zone.id])).get(zone.id) ?? DEFAULT_ZONE_ATTRIBUTES);
      if (body.rrsets !== undefined) {
        // PUT with rrsets replaces the zone's records (its SOA's timers too) as one change set.
        const given = fromRRsets(body.rrsets, zone.name);
        // As PowerDNS: a zone replaced whole is given its SOA (zonedeck takes the timers from it).
        if (given.settings.refresh_interval === undefined) throw unprocessable('Must give SOA record for zone when replacing all RR sets');
        const apexNs = (await store.records.atName(zone.id, APEX)).filter((r) => r.record_type === 'NS');
        const t = translate(given.rrsets, { zone, apexNs, identity }, (k) => given.positions[k]!);
        const settings = { ...timersOf(given.settings), ...(body.dnssec === undefined ? {} : { dnssec_enabled: body.dnssec }) };
        await services.rrsets.replaceAll(c.get('principal').user.id, placeOf(c), t.changes, settings, pdnsWrite(c)).catch((e: unknown) => {
          throw clientError(e, t, true);
        });
        await writeComments(services.zoneAttributes, zone, { ...t, comments: [...t.comments, ...given.comments] });
      } else if (body.dnssec !== undefined) await zones.update(c.get('principal').user.id, placeOf(c), { dnssec_enabled: body.dnssec }, pdnsWrite(c));
      if (attributes) await services.zoneAttributes.set(zone, attributes);
      return c.body(null, 204);
    })
    .patch('/zones/:zone_id', async (c) => {
      const body = parseBody(PatchBody, await bodyJson(c));
      const zone = await zoneOf(c);
      const apexNs = (await store.records.atName(zone.id, APEX)).filter((r) => r.record_type === 'NS');
      const t = translate(body.rrsets, { zone, apexNs, identity, ttls: await extendedTtls(zone, body.rrsets) });
      const opts = pdnsWrite(c);
      await checkCommentScope(store, opts, zone, t);
      const applied = await services.rrsets.patch(c.get('principal').user.id, placeOf(c), t.changes, opts).catch((e: unknown) => {
        throw clientError(e, t);
      });
      await writeComments(services.zoneAttributes, zone, t);
      c.header('X-PDNS-Old-Serial', String(applied.change.serial_before));
      c.header('X-PDNS-New-Serial', String(applied.change.serial_after));
      return c.body(null, 204);
    })
    .delete('/zones/:zone_id', async (c) => {
      const { user, scope } = c.get('principal');
      await zones.remove(user.id, placeOf(c), undefined, scope, { actor: auditActor(c) });
      return c.body(null, 204);
    })
    .put('/zones/:zone_id/axfr-retrieve', async (c) => {
      const zone = await zoneOf(c);
      if (zone.kind !== 'secondary') throw unprocessable(`Domain '${dotted(zone.name)}' is not a slave domain (or has no primary defined)`);
      const { user, scope } = c.get('principal');
      await services.secondaries.retrieve(user.id, placeOf(c), scope);
      return c.json({ result: `Added retrieval request for '${dotted(zone.name)}' from primary ${zone.primaries?.[0] ?? ''}` });
    })
    .put('/zones/:zone_id/notify', async (c) => {
      await zones.notify(c.get('principal').user.id, placeOf(c));
      return c.json({ result: 'Notification queued' });
    })
    .get('/zones/:zone_id/export', async (c) => {
      const zone = await zoneOf(c);
      const text = await services.zoneFiles.export(zone);
      // PowerDNS answers JSON to a client that asks for it, else the text itself.
      if (/application\/json/i.test(c.req.header('accept') ?? '')) return c.json({ zone: text });
      return c.body(text, 200, { 'Content-Type': 'text/plain; charset=us-ascii' });
    });
}
