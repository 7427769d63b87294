/**
 * Zones ("domains" in the API): create with SOA defaults and the apex NS set, partial update
 * of SOA timers and DNSSEC, CSK rollover, NOTIFY on demand; the move and the deletion are in
 * zone-owners.ts, finding a user's zone in place.ts, the rules of a new zone in zone-rules.ts.
 * Every change bumps the serial in the same transaction. Turning DNSSEC on creates the zone's CSK
 * in that transaction and turning it off removes its keys, so a zone is signed exactly when
 * `dnssec_enabled` says so.
 */
import { policyText, readPolicy } from '../../core/dnssec-policy';
import { isInZone, normalizeZoneName, APEX } from '../../core/domain-name';
import type { Scope } from '../../core/scope';
import { SOA_DEFAULTS } from '../../core/soa';
import type { DnssecPublicKey, DomainRow, Page, ReadRepos, ServiceStore, Window } from '../../store/types';
import { CLI_WRITE, type Applied, type ChangeSets, type Edit, type WriteOptions } from '../changes/change-sets';
import type { ZoneEvents } from '../changes/events';
import { FieldCheck } from '../changes/rule-fields';
import type { Audit, AuditActor } from '../identity/audit';
import { teamFor } from './access';
import { ownedZone, zonePlace, type Place, type ZoneRef } from './place';
import { moveZone, removeZone, type OwnerDeps } from './zone-owners';
import { admissible, soaTimers, zoneRules, type ZoneRules, type ZoneSettings } from './zone-rules';
import { heldKey, secondaryFields, type SecondarySource } from './secondary-source';
import { transferSettings, type TransferSettingsInput } from './zone-transfers';

// Callers name a place and the settings from here, where the zone service is.
export { nameAtPlace, nameFromPlace, type Place, type ZoneRef } from './place';
export type { ZoneSettings } from './zone-rules';
export type { TransferSettingsInput } from './zone-transfers';

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

export interface ZonesDeps {
  store: ServiceStore;
  events: ZoneEvents;
  changes: ChangeSets;
  audit: Audit;
  defaults: ZoneDefaults;
}

export class Zones {
  private readonly store: ServiceStore;
  private readonly events: ZoneEvents;
  private readonly changes: ChangeSets;
  private readonly defaults: ZoneDefaults;
  /** The configuration the rules of a new zone read (reserved names, catalog zone, quota). */
  readonly rules: ZoneRules;
  private readonly owners: OwnerDeps;

  constructor(deps: ZonesDeps) {
    this.store = deps.store;
    this.events = deps.events;
    this.changes = deps.changes;
    this.defaults = deps.defaults;
    this.rules = zoneRules(deps.defaults);
    this.owners = { store: deps.store, changes: deps.changes, rules: this.rules, audit: deps.audit, historyDays: deps.defaults.historyDays };
  }

  /** The user's zone by name, or a place already resolved (read again inside a transaction); NotFound for anyone else's. */
  owned(userId: number, ref: ZoneRef, repos: ReadRepos = this.store): Promise<DomainRow> {
    return ownedZone(this.store, userId, ref, repos);
  }

  /** The user's closest zone at or above a name, and the name inside it. */
  place(userId: number, ref: ZoneRef, repos: ReadRepos = this.store): Promise<Place> {
    return zonePlace(this.store, userId, ref, repos);
  }

  /** The rules a new zone must meet (zone-rules.ts), in the transaction that makes it. */
  admissible(tx: ReadRepos, userId: number, name: string, teamId: number | null): Promise<void> {
    return admissible(this.rules, tx, userId, name, teamId);
  }

  page(userId: number, w: Window, search?: string, only?: readonly string[]): Promise<Page<DomainRow>> {
    return this.store.domains.page(userId, w, search, only);
  }

  /** Why CATALOG_ZONE cannot be published (a hosted zone has its name or lies inside it), or null. */
  async catalogClash(): Promise<string | null> {
    const name = this.defaults.catalogZone;
    if (!name) return null;
    const taken = [await this.store.domains.byName(name), ...(await this.store.domains.related(name))].find((d) => d && isInZone(d.name, name));
    return taken ? `${taken.name} is a hosted zone; the catalog zone needs ${name} and the names below it to itself: choose another name, or delete that zone first` : null;
  }

  /**
   * Creates a zone with SOA defaults and the apex NS set; its first change set (serial 0 to
   * the first serial) records who created it, with the apex NS set and DNSSEC if asked for.
   */
  async create(
    userId: number,
    input: { name: string; team?: string; secondary?: SecondarySource } & ZoneSettings,
    opts: WriteOptions = CLI_WRITE,
    more?: (edit: Edit) => Promise<void>,
  ): Promise<DomainRow> {
    const check = new FieldCheck();
    const name = check.run('name', () => normalizeZoneName(input.name));
    const soa = soaTimers(check, SOA_DEFAULTS, input);
    const secondary = input.secondary && secondaryFields(check, input.secondary, input, more !== undefined);
    check.done();
    const { nameservers, nsTtl } = this.defaults;
    const { zone } = await this.changes.update(
      async (tx, now) => {
        // One creation at a time on PostgreSQL, so that the nesting rule below cannot be raced
        // (two accounts creating x.test and sub.x.test at once); SQLite's one writer already is.
        await tx.quotas.lock('zones', 0);
        // A team's zone: created by its owners and admins; a team the user is not in is named like a missing one.
        const team = input.team === undefined ? undefined : await teamFor(tx, userId, input.team, 'admin', 'create zones for it');
        await admissible(this.rules, tx, userId, name!, team?.id ?? null);
        if (secondary?.tsig_key) await heldKey(tx, userId, secondary.tsig_key);
        const at = now.toISOString();
        const row = { user_id: userId, team_id: team?.id ?? null, name: name!, serial_number: 0, ...soa, dnssec_enabled: false, delegated: false, created_at: at, updated_at: at };
        return { create: secondary ? { ...row, kind: 'secondary' as const, primaries: secondary.primaries, tsig_key: secondary.tsig_key, catalog_id: secondary.catalog_id } : row };
      },
      { ...opts, dryRun: false, ifMatch: undefined, comment: opts.comment || (secondary ? `secondary zone created, of ${secondary.primaries.join(', ')}` : 'zone created') },
      async (u) => {
        if (secondary) {
          // Nothing served until the first transfer: the zone's history begins with its creation, at serial 0.
          u.transfer = { serial_number: 0, soa_mname: null, soa_rname: null, expires_at: null };
          u.touch = true;
          return;
        }
        u.draft.system = true;
        await u.draft.load([APEX]);
        u.draft.put(
          APEX,
          'NS',
          nameservers.map((ns) => ({ content: ns, ttl: nsTtl })),
          nsTtl,
        );
        if (input.dnssec_enabled) u.settings.dnssec_enabled = true;
        // More of the first change set: a zone file's records, for a zone created from one.
        if (more) await more(u);
      },
    );
    return zone;
  }

  /**
   * Partial update of SOA timers, DNSSEC and the zone's own transfers, as one change set; a no-op
   * patch changes nothing, not even the serial.
   */
  async update(userId: number, name: ZoneRef, patch: ZoneSettings & TransferSettingsInput, opts: WriteOptions = CLI_WRITE): Promise<Applied<void>> {
    // The SOA bounds and the transfer key are judged on the zone as locked: the timers the patch leaves, the owner it has now.
    return this.changes.update(await this.owned(userId, name), opts, async ({ zone, settings, tx }) => {
      const check = new FieldCheck();
      const soa = soaTimers(check, zone, patch);
      const transfers = await transferSettings(check, tx, zone, patch);
      check.done();
      Object.assign(settings, soa, transfers);
      if (patch.dnssec_enabled !== undefined) settings.dnssec_enabled = patch.dnssec_enabled;
      if (patch.dnssec_policy !== undefined) {
        // Stored only when it says something else than the zone's policy now (a new algorithm or key set starts a rollover).
        const now = readPolicy(zone.dnssec_policy);
        const next = policyText({ ...now, ...patch.dnssec_policy });
        if (next !== policyText(now)) settings.dnssec_policy = next;
      }
    });
  }

  /** The public halves of these zones' DNSSEC keys, by domain id (none for unsigned zones). */
  async publicKeys(zones: readonly DomainRow[]): Promise<Map<number, DnssecPublicKey[]>> {
    const out = new Map<number, DnssecPublicKey[]>();
    const signed = zones.filter((z) => z.dnssec_enabled).map((z) => z.id);
    for (const key of await this.store.dnssecKeys.publicKeys(signed)) {
      const list = out.get(key.domain_id);
      if (list) list.push(key);
      else out.set(key.domain_id, [key]);
    }
    return out;
  }

  /**
   * Asks for a NOTIFY to the secondaries now (the PowerDNS API's PUT …/notify): a zone event
   * that changes nothing, on which the DNS server notifies as on every serial change.
   */
  async notify(userId: number, name: ZoneRef): Promise<DomainRow> {
    const zone = await this.owned(userId, name);
    this.events.emit({ kind: 'zone-changed', domain: zone, names: [], keys: false });
    return zone;
  }

  /** Moves a zone to a team, or back to the user alone (zone-owners.ts). */
  move(userId: number, name: ZoneRef, team: string | null, scope?: Scope): Promise<{ zone: DomainRow; from: string | null }> {
    return moveZone(this.owners, userId, name, team, scope);
  }

  /** Deletes a zone, archived for HISTORY_DAYS unless `how.discard` (zone-owners.ts). */
  remove(userId: number, name: ZoneRef, ifMatch?: number | '*', scope?: Scope, how: { actor?: AuditActor; discard?: boolean } = {}): Promise<void> {
    return removeZone(this.owners, userId, name, ifMatch, scope, how);
  }
}
