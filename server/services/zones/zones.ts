/**
 * Zones ("domains" in the API): create with SOA defaults and the apex NS set, partial update
 * of SOA timers and DNSSEC, delete. Every change bumps the serial in the same transaction.
 * Turning DNSSEC on creates the zone's CSK in that transaction and turning it off removes
 * its keys, so a zone is signed exactly when `dnssec_enabled` says so.
 */
import { isInZone, normalizeRecordName, normalizeZoneName, parseZonePathName, strictPathName, APEX } from '../../core/domain-name';
import { Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, RuleError } from '../../core/errors';
import { zoneRefusal, type Scope } from '../../core/scope';
import { ownerOnly, roleAtLeast, type Role } from '../../core/roles';
import { roleOn } from './access';
import { reservedDomains, reservedRefusal } from './reserved-names';
import { SOA_DEFAULTS, SOA_FIELDS, soaErrors, type SoaField, type SoaTimers } from '../../core/soa';
import type { DnssecPublicKey, DomainRow, Page, ReadRepos, ServiceStore, TeamRow, Window } from '../../store/types';
import { CLI_WRITE, type Applied, type ChangeSets, type Edit, type WriteOptions } from '../changes/change-sets';
import type { ZoneEvents } from '../changes/events';
import { FieldCheck } from '../changes/rule-fields';
import { createAudit, type AuditActor } from '../identity/audit';
import { DEFAULT_HISTORY_DAYS, deletedDetail } from './deleted-zones';

export interface ZoneSettings extends Partial<SoaTimers> {
  dnssec_enabled?: boolean;
}

export interface ZoneDefaults {
  nameservers: string[];
  /** SOA RNAME (HOSTMASTER). */
  hostmaster?: string;
  /** TTL of the apex NS set the service manages. */
  nsTtl: number;
  /** Most records one zone may hold (MAX_RECORDS_PER_ZONE). */
  maxRecords?: number;
  /** The catalog zone's name (CATALOG_ZONE): zonedeck's own, so no user may create it or a zone inside it. */
  catalogZone?: string;
  /** RESOLVER (host:port), through which the DNS server resolves ALIAS targets; without it ALIAS is refused. */
  resolver?: string;
  /** MAX_ZONES_PER_USER, MAX_TOKENS_PER_USER, MAX_TSIG_KEYS_PER_USER; absent: no limit. */
  maxZonesPerUser?: number;
  maxTokensPerUser?: number;
  maxTsigKeysPerUser?: number;
  /** ALIAS_DENY's suffixes. */
  aliasDeny?: readonly string[];
  /** RATE_LIMIT_UPDATE; absent or null: RFC 2136 updates are not limited. */
  rateLimitUpdate?: { perSecond: number; burst: number } | null;
  /** DATA_DIR, where the first start keeps admin's first password until it is changed. */
  dataDir?: string;
  /** HISTORY_DAYS: how long history, and a deleted zone (restorable), are kept; absent: 365. */
  historyDays?: number;
}


/**
 * Where a record request points: the user's zone and, inside it, the name the request was
 * made at (`base`, relative to the zone; APEX when the request named the zone itself).
 * ACME clients put the certificate's name in the path (`www.example.com` for a zone
 * `example.com`), and the record names they send are relative to it.
 */
export interface Place {
  zone: DomainRow;
  base: string;
}

/** A zone as a caller names it: a name (the CLI, a DNS message) or a place the API resolved from its path. */
export type ZoneRef = string | Place;

/** A name quoted in an error, cut to a sane length. */
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** A record name given relative to a place, as stored (relative to the zone). */
export function nameAtPlace(input: string, { zone, base }: Place): string {
  if (base === APEX) return normalizeRecordName(input, zone.name);
  const rel = normalizeRecordName(input, `${base}.${zone.name}`);
  return rel === APEX ? base : `${rel}.${base}`;
}

/** A stored record name as seen from a place (null when it lies outside it). */
export function nameFromPlace(name: string, base: string): string | null {
  if (base === APEX) return name;
  if (name === base) return APEX;
  return name.endsWith(`.${base}`) ? name.slice(0, -(base.length + 1)) : null;
}

export function createZones(store: ServiceStore, events: ZoneEvents, changes: ChangeSets, defaults: ZoneDefaults) {
  const reserved = reservedDomains(defaults);
  const audit = createAudit(store);
  /**
   * A place resolved earlier (by the API's path check), as it is now: read again
   * inside a transaction, and NotFound unless it is still the same zone of the same user.
   */
  async function again(userId: number, ref: Place, repos: ReadRepos): Promise<Place> {
    if (repos === store) return ref;
    const zone = await repos.domains.byId(ref.zone.id);
    if (!zone || zone.name !== ref.zone.name || !(await roleOn(repos, userId, zone))) throw new NotFound(`no domain named ${ref.zone.name}`);
    return { zone, base: ref.base };
  }

  /**
   * The user's zone by name (parsed strictly, as a path names it), or a place already resolved;
   * another user's zone is NotFound exactly like a missing one.
   */
  async function owned(userId: number, ref: ZoneRef, repos: ReadRepos = store): Promise<DomainRow> {
    if (typeof ref !== 'string') {
      if (ref.base !== APEX) throw new NotFound(`no domain named ${ref.base}.${ref.zone.name}`);
      return (await again(userId, ref, repos)).zone;
    }
    let normalized: string;
    try {
      normalized = parseZonePathName(ref);
    } catch {
      throw new NotFound(`no domain named ${clip(ref)}`);
    }
    const zone = await repos.domains.byName(normalized);
    if (!zone || !(await roleOn(repos, userId, zone))) throw new NotFound(`no domain named ${normalized}`);
    return zone;
  }

  /**
   * The closest enclosing zone of the user for a name at or inside one of their zones
   * (a leading `*\.` of a wildcard certificate name is dropped), or a place already resolved.
   * The name is parsed strictly, as a path names it. NotFound otherwise, also for another
   * user's zone.
   */
  async function place(userId: number, ref: ZoneRef, repos: ReadRepos = store): Promise<Place> {
    if (typeof ref !== 'string') return again(userId, ref, repos);
    let name: string;
    try {
      name = strictPathName(ref).toLowerCase();
    } catch {
      throw new NotFound(`no domain named ${clip(ref)}`);
    }
    if (name.startsWith('*.')) name = name.slice(2);
    const labels = name.split('.');
    for (let i = 0; i + 2 <= labels.length; i++) {
      let zoneName: string;
      try {
        zoneName = normalizeZoneName(labels.slice(i).join('.'));
      } catch {
        continue;
      }
      const zone = await repos.domains.byName(zoneName);
      if (!zone || !(await roleOn(repos, userId, zone))) continue;
      if (i === 0) return { zone, base: APEX };
      try {
        return { zone, base: normalizeRecordName(`${name}.`, zone.name) };
      } catch (e) {
        if (e instanceof RuleError) break;
        throw e;
      }
    }
    throw new NotFound(`no domain named ${clip(name)}`);
  }

  /** The team by name, for a user whose role in it is `least` or stronger; one they are not in is an unknown team (the `team` field). */
  async function teamFor(tx: ReadRepos, userId: number, name: string, least: Role, what: string): Promise<TeamRow> {
    const team = typeof name === 'string' && name.length <= 64 ? await tx.teams.byName(name.trim().toLowerCase()) : undefined;
    const member = team && (await tx.teams.member(team.id, userId));
    if (!team || !member) throw Invalid.field('team', 'is not a team you belong to');
    if (!roleAtLeast(member.role, least)) throw new Forbidden(`only ${least === 'owner' ? 'an owner' : 'an owner or admin'} of team ${team.name} may ${what}; your role is ${member.role}`);
    return team;
  }

  /** Why the user may not do an owner's act on a team's zone (null for their own zone, or as a team owner). */
  async function teamOwnerRefusal(tx: ReadRepos, userId: number, zone: DomainRow, what: string): Promise<string | null> {
    if (zone.team_id == null) return null;
    const role = await roleOn(tx, userId, zone);
    const team = (await tx.teams.byId(zone.team_id))?.name ?? '';
    return role ? ownerOnly(role, team, what) : `only an owner of team ${team} may ${what}`;
  }

  /**
   * A zone in or around `name` held by another owner than `userId` alone (`teamId` null) or team
   * `teamId`: zones nest only under one owner, so that no account serves or delegates names of
   * another's zone. Creation, restore and a move to another owner all ask this. Callers hold
   * `quotas.lock('zones', 0)` so that two such acts cannot race.
   */
  async function foreignNeighbour(tx: ReadRepos, name: string, userId: number, teamId: number | null): Promise<{ zone: DomainRow; how: 'lies inside' | 'contains' } | undefined> {
    const zone = (await tx.domains.related(name)).find((d) => (teamId != null ? d.team_id !== teamId : d.team_id != null || d.user_id !== userId));
    return zone && { zone, how: isInZone(name, zone.name) ? 'lies inside' : 'contains' };
  }

  /** Whether a zone of `userId` and team `teamId` is an administrator's alone: the one holder the service's own domains admit. */
  async function adminAlone(tx: ReadRepos, userId: number, teamId: number | null): Promise<boolean> {
    return teamId == null && (await tx.users.byId(userId))?.is_admin === true;
  }

  /**
   * The rules a new zone must meet, in the transaction that makes it (after `quotas.lock`): a
   * creation, and the restore of a deleted zone (deleted-zones.ts). `userId` is whose zone it
   * is (for a team's zone, its creator) and `teamId` its team: the name is free, neither the
   * catalog zone nor reserved, nests only in or around zones of the same owner, and the user
   * holds fewer than MAX_ZONES_PER_USER zones. 409 or 403 naming the zone otherwise.
   */
  async function admissible(tx: ReadRepos, userId: number, name: string, teamId: number | null): Promise<void> {
    const existing = await tx.domains.byName(name);
    if (existing) {
      throw new Conflict(`${name} already exists`, { name: existing.user_id === userId ? 'you already manage this domain' : 'is already managed by another account' });
    }
    if (defaults.catalogZone && isInZone(name, defaults.catalogZone)) {
      throw new Conflict(`${name} is the catalog zone zonedeck publishes (CATALOG_ZONE)`, { name: name === defaults.catalogZone ? 'is the catalog zone of this service' : 'lies inside the catalog zone of this service' });
    }
    const why = reservedRefusal(name, reserved, await adminAlone(tx, userId, teamId));
    if (why) throw new Conflict(`${name} ${why}`, { name: why });
    const foreign = await foreignNeighbour(tx, name, userId, teamId);
    if (foreign) throw new Conflict(`${name} ${foreign.how} ${foreign.zone.name}, which another account manages`, { name: `${foreign.how} a domain managed by another account` });
    const max = defaults.maxZonesPerUser;
    if (max !== undefined && (await tx.quotas.count('zones', userId)) >= max) {
      throw new Forbidden(`this account already holds ${max} zones; ${max} is the most one user may have (MAX_ZONES_PER_USER)`);
    }
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
    place,
    admissible,

    page: (userId: number, w: Window, search?: string, only?: readonly string[]): Promise<Page<DomainRow>> => store.domains.page(userId, w, search, only),

    /** Why CATALOG_ZONE cannot be published (a hosted zone has its name or lies inside it), or null. */
    async catalogClash(): Promise<string | null> {
      const name = defaults.catalogZone;
      if (!name) return null;
      const taken = [await store.domains.byName(name), ...(await store.domains.related(name))].find((d) => d && isInZone(d.name, name));
      return taken ? `${taken.name} is a hosted zone; the catalog zone needs ${name} and the names below it to itself: choose another name, or delete that zone first` : null;
    },

    /**
     * Creates a zone with SOA defaults and the apex NS set; its first change set (serial 0 to
     * the first serial) records who created it, with the apex NS set and DNSSEC if asked for.
     */
    async create(userId: number, input: { name: string; team?: string } & ZoneSettings, opts: WriteOptions = CLI_WRITE, more?: (edit: Edit) => Promise<void>): Promise<DomainRow> {
      const check = new FieldCheck();
      const name = check.run('name', () => normalizeZoneName(input.name));
      const soa = timers(check, SOA_DEFAULTS, input);
      check.done();
      const { zone } = await changes.apply(
        async (tx, now) => {
          // One creation at a time on PostgreSQL, so that the nesting rule below cannot be raced
          // (two accounts creating x.test and sub.x.test at once); SQLite's one writer already is.
          await tx.quotas.lock('zones', 0);
          // A team's zone: created by its owners and admins; a team the user is not in is named like a missing one.
          const team = input.team === undefined ? undefined : await teamFor(tx, userId, input.team, 'admin', 'create zones for it');
          await admissible(tx, userId, name!, team?.id ?? null);
          const at = now.toISOString();
          return { create: { user_id: userId, team_id: team?.id ?? null, name: name!, serial_number: 0, ...soa, dnssec_enabled: false, delegated: false, created_at: at, updated_at: at } };
        },
        { ...opts, dryRun: false, ifMatch: undefined, comment: opts.comment || 'zone created' },
        async (edit) => {
          const { draft, settings } = edit;
          draft.system = true;
          await draft.load([APEX]);
          draft.put(APEX, 'NS', defaults.nameservers.map((ns) => ({ content: ns, ttl: defaults.nsTtl })), defaults.nsTtl);
          if (input.dnssec_enabled) settings.dnssec_enabled = true;
          // More of the first change set: a zone file's records, for a zone created from one.
          if (more) await more(edit);
        },
      );
      return zone;
    },

    /** Partial update of SOA timers and DNSSEC, as one change set; a no-op patch changes nothing, not even the serial. */
    async update(userId: number, name: ZoneRef, patch: ZoneSettings, opts: WriteOptions = CLI_WRITE): Promise<Applied<void>> {
      return changes.apply(
        (tx) => owned(userId, name, tx),
        opts,
        ({ zone, settings }) => {
          const check = new FieldCheck();
          const soa = timers(check, zone, patch);
          check.done();
          Object.assign(settings, soa);
          if (patch.dnssec_enabled !== undefined) settings.dnssec_enabled = patch.dnssec_enabled;
        },
      );
    },

    /** The public halves of these zones' DNSSEC keys, by domain id (none for unsigned zones). */
    async publicKeys(zones: readonly DomainRow[]): Promise<Map<number, DnssecPublicKey[]>> {
      const out = new Map<number, DnssecPublicKey[]>();
      const signed = zones.filter((z) => z.dnssec_enabled).map((z) => z.id);
      for (const key of await store.dnssecKeys.publicKeys(signed)) {
        const list = out.get(key.domain_id);
        if (list) list.push(key);
        else out.set(key.domain_id, [key]);
      }
      return out;
    },

    /**
     * CSK rollover, double-signature method (RFC 6781 §4.1.2; RFC 7583 §3.3), an operator's
     * command: `start` adds a second key that signs beside the first; once the parent's DS
     * names the new key and the old DS's TTL has passed, `finish` removes every older key.
     */
    async rollover(name: string, step: 'start' | 'finish', opts: WriteOptions = CLI_WRITE): Promise<{ zone: DomainRow; keys: DnssecPublicKey[] }> {
      const { zone, result } = await changes.apply(
        async (tx) => {
          const found = await tx.domains.byName(normalizeZoneName(name));
          if (!found) throw new NotFound(`no domain named ${name}`);
          return found;
        },
        opts,
        async (edit) => {
          const { zone, tx } = edit;
          if (!zone.dnssec_enabled) throw new Conflict(`${zone.name} is not signed: turn DNSSEC on first`);
          const keys = await tx.dnssecKeys.signingKeys(zone.id);
          if (step === 'start' && keys.length > 1) throw new Conflict(`${zone.name} is already rolling over: finish it first`);
          if (step === 'finish' && keys.length < 2) throw new Conflict(`${zone.name} has one key: start a rollover first`);
          edit.keys = step === 'start' ? 'rollover-start' : 'rollover-finish';
        },
        (tx, z) => tx.dnssecKeys.publicKeys([z.id]),
      );
      return { zone, keys: result };
    },

    /**
     * Asks for a NOTIFY to the secondaries now (the PowerDNS API's PUT …/notify): a zone event
     * that changes nothing, on which the DNS server notifies as on every serial change.
     */
    async notify(userId: number, name: ZoneRef): Promise<DomainRow> {
      const zone = await owned(userId, name);
      events.emit({ kind: 'zone-changed', domain: zone, names: [], keys: false });
      return zone;
    },

    /**
     * Moves a zone to a team (`team`), or back to the user alone (null), with its records and
     * history: an owner's act on both sides: the zone's owner (the user, or an
     * owner of its team) who is also an owner of the team it moves to. The DNS server hears of
     * it like of any change, so a member's key transfers it from then on.
     */
    async move(userId: number, name: ZoneRef, team: string | null, scope?: Scope): Promise<{ zone: DomainRow; from: string | null }> {
      const { zone, result: from } = await changes.alterZone(
        (tx) => owned(userId, name, tx),
        async (tx, z) => {
          const why = (scope ? zoneRefusal(scope, z.name, 'move the zone') : null) ?? (await teamOwnerRefusal(tx, userId, z, 'move its zones'));
          if (why) throw new Forbidden(why);
          const from = z.team_id != null ? ((await tx.teams.byId(z.team_id))?.name ?? null) : null;
          const to = team === null ? null : await teamFor(tx, userId, team, 'owner', 'move zones into it');
          const owner = { user_id: to ? z.user_id : userId, team_id: to?.id ?? null };
          // The creation's nesting rule for the new owner, serialized with creations as they are.
          await tx.quotas.lock('zones', 0);
          const foreign = await foreignNeighbour(tx, z.name, owner.user_id, owner.team_id);
          if (foreign) {
            const whose = foreign.zone.team_id == null && foreign.zone.user_id === userId ? 'is yours alone' : 'another account manages';
            throw new Conflict(`${z.name} ${foreign.how} ${foreign.zone.name}, which ${whose}: moved to ${to ? `team ${to.name}` : 'you alone'}, the two would be nested across accounts`, {
              team: `the domain ${foreign.how} a domain of another owner`,
            });
          }
          // A zone of the service's own domains stays an administrator's alone, moved as it was created.
          const reservedWhy = reservedRefusal(z.name, reserved, await adminAlone(tx, owner.user_id, owner.team_id));
          if (reservedWhy) throw new Conflict(`${z.name} ${reservedWhy}`, { team: reservedWhy });
          return { owner, result: from };
        },
      );
      return { zone, from };
    },

    /**
     * Deletes a zone; `ifMatch` guards it like any write, and the credential's scope is judged on
     * the row it locked. The zone is archived in the same transaction, with its
     * records, keys and history, for HISTORY_DAYS (deleted-zones.ts restores it), and the deletion
     * is an audit event of `how.actor` (absent: the admin CLI, as the zone's owner). `how.discard`:
     * no archive and no event (a creation undone because it failed half way).
     */
    async remove(userId: number, name: ZoneRef, ifMatch?: number | '*', scope?: Scope, how: { actor?: AuditActor; discard?: boolean } = {}): Promise<void> {
      await changes.alterZone(
        (tx) => owned(userId, name, tx),
        async (tx, z) => {
          const why = (scope ? zoneRefusal(scope, z.name, 'delete the zone') : null) ?? (await teamOwnerRefusal(tx, userId, z, 'delete its zones'));
          if (why) throw new Forbidden(why);
          if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== z.serial_number) {
            throw new PreconditionFailed(`${z.name} has changed: its serial is ${z.serial_number}, not ${ifMatch}`, { 'If-Match': `the zone is at serial ${z.serial_number}` });
          }
          if (how.discard) return { remove: { discard: true }, result: undefined };
          const owner = { id: z.user_id, username: (await tx.users.byId(z.user_id))?.username ?? '' };
          const actor = how.actor ?? { username: owner.username, credential: 'cli' };
          const team = z.team_id != null ? await tx.teams.byId(z.team_id) : undefined;
          return {
            remove: {
              deletedBy: actor.username,
              days: defaults.historyDays ?? DEFAULT_HISTORY_DAYS,
              // The zone's user is its subject: they read the event even when another deleted it (a team owner, the CLI).
              archived: (tx, archived) => audit.record({ kind: 'zone-deleted', actor, subject: owner, ...(team ? { team: { id: team.id, name: team.name } } : {}), detail: deletedDetail(archived) }, tx),
            },
            result: undefined,
          };
        },
      );
    },
  };
}

export type Zones = ReturnType<typeof createZones>;
