/**
 * Catalog zones consumed (RFC 9432): an administrator names a producer's catalog, its primaries
 * (and key) and an owner, a user or a team. The catalog is transferred on its SOA refresh timer
 * (at least every minute while it fails, and at once on "retrieve now"); each member zone it
 * lists (a PTR at `<unique-id>.zones.<catalog>`, RFC 9432 §4.1) becomes a secondary zone of the
 * owner following the same primaries, and a member the catalog no longer lists is deleted
 * (archived, restorable like any deleted zone). Zones made by hand are never touched. One node
 * at a time checks a catalog (a lease in the database, as for a secondary zone).
 */
import { normalizeZoneName } from '../../core/domain-name';
import { Conflict, Forbidden, Invalid, NotFound, RuleError, ZonedeckError } from '../../core/errors';
import { parseHostPort } from '../../core/host-port';
import { parsePrimaries } from '../../core/primaries';
import type { Logger } from '../../log';
import type { CatalogResult, CatalogRow, ServiceStore, UserRow } from '../../store/types';
import type { WriteOptions } from '../changes/change-sets';
import { heldKey } from '../zones/secondary-source';
import type { Zones } from '../zones/zones';
import type { PullClient, PulledRecord, PullKey } from './pull-types';

const POLL_MS = 1000;
const LEASE_MS = 10 * 60_000;
/** A catalog that fails is asked again after this long at most. */
const RETRY_S = 60;

export interface CatalogInput {
  zone: string;
  primaries: readonly string[];
  tsig_key?: string | null;
  /** A username, or a team's name. */
  owner: string;
}

/** The member zones a catalog lists (RFC 9432 §4.1: PTR records at `<id>.zones`), by name. */
export function catalogMembers(records: readonly PulledRecord[]): { members: string[]; error: string | null } {
  const version = records.find((r) => r.name === 'version' && r.record_type === 'TXT')?.content.replace(/"/g, '');
  if (version !== '2' && version !== '1')
    return { members: [], error: `the catalog's version is ${version === undefined ? 'missing' : `"${version}"`}: zonedeck reads catalogs of version 2 (RFC 9432)` };
  const members = new Set<string>();
  for (const r of records) {
    if (r.record_type !== 'PTR' || !/^[^.]+\.zones$/.test(r.name)) continue;
    try {
      members.add(normalizeZoneName(r.content));
    } catch {
      // A member name zonedeck cannot host is passed over; the others are followed.
    }
  }
  return { members: [...members].sort(), error: null };
}

export class Catalogs {
  private timer: NodeJS.Timeout | null = null;
  private client: PullClient | null = null;
  private options: { node: string; log: Logger; maxRecords: number } | null = null;
  private readonly running = new Set<number>();

  constructor(
    private readonly store: ServiceStore,
    private readonly zones: Zones,
  ) {}

  /** Who a catalog's members are made for: the user, or the team's owner acting for the team. */
  private async owner(name: string): Promise<{ user: UserRow; team: string | null; teamId: number | null }> {
    const user = await this.store.users.byUsername(name.trim().toLowerCase());
    if (user) return { user, team: null, teamId: null };
    const team = await this.store.teams.byName(name.trim().toLowerCase());
    const owner = team && (await this.store.teams.members(team.id)).find((m) => m.role === 'owner');
    const ownerUser = owner && (await this.store.users.byId(owner.user_id));
    if (!team || !ownerUser) throw Invalid.field('owner', `no user or team named ${name.slice(0, 64)}`);
    return { user: ownerUser, team: team.name, teamId: team.id };
  }

  async add(admin: Pick<UserRow, 'is_admin'>, input: CatalogInput): Promise<CatalogRow> {
    if (!admin.is_admin) throw new Forbidden('only an administrator may add catalogs');
    const fields: Record<string, string> = {};
    const attempt = <T>(field: string, f: () => T): T | undefined => {
      try {
        return f();
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
        fields[field] = e.message;
        return undefined;
      }
    };
    const zone = attempt('zone', () => normalizeZoneName(input.zone));
    const primaries = attempt('primaries', () => parsePrimaries(input.primaries));
    if (Object.keys(fields).length > 0) throw new Invalid(fields);
    const owner = await this.owner(input.owner);
    if (input.tsig_key) await heldKey(this.store, owner.user.id, input.tsig_key.trim().toLowerCase());
    if (await this.store.catalogs.byZone(zone!)) throw new Conflict(`the catalog ${zone} is followed already`);
    const now = new Date().toISOString();
    const row = await this.store.catalogs.insert({
      zone: zone!,
      primaries: primaries!,
      tsig_key: input.tsig_key?.trim().toLowerCase() || null,
      user_id: owner.user.id,
      team_id: owner.teamId,
      created_at: now,
      next_check: now,
    });
    void this.poll();
    return row;
  }

  list(admin: Pick<UserRow, 'is_admin'>): Promise<CatalogRow[]> {
    if (!admin.is_admin) throw new Forbidden('only an administrator may see catalogs');
    return this.store.catalogs.all();
  }

  /** Stops following a catalog; its member zones stay, as secondary zones made by hand. */
  async remove(admin: Pick<UserRow, 'is_admin'>, zone: string): Promise<void> {
    if (!admin.is_admin) throw new Forbidden('only an administrator may remove catalogs');
    const row = await this.store.catalogs.byZone(zone.toLowerCase().replace(/\.$/, ''));
    if (!row) throw new NotFound(`no catalog ${zone.slice(0, 253)} is followed`);
    await this.store.catalogs.delete(row.id);
  }

  async retrieve(admin: Pick<UserRow, 'is_admin'>, zone: string): Promise<CatalogRow> {
    if (!admin.is_admin) throw new Forbidden('only an administrator may retrieve catalogs');
    const row = await this.store.catalogs.byZone(zone.toLowerCase().replace(/\.$/, ''));
    if (!row) throw new NotFound(`no catalog ${zone.slice(0, 253)} is followed`);
    await this.store.catalogs.dueBy(row.id, new Date().toISOString());
    void this.poll();
    return row;
  }

  start(client: PullClient, options: { node: string; log: Logger; maxRecords: number }): void {
    this.client = client;
    this.options = options;
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    if (!this.client || !this.options) return;
    try {
      for (const row of await this.store.catalogs.due(new Date().toISOString())) if (!this.running.has(row.id)) void this.check(row);
    } catch (err) {
      this.options.log.warn({ err }, 'catalogs: cannot read which catalogs are due');
    }
  }

  /** One check of one catalog under its lease: transferred whole, its members made and dropped. */
  private async check(row: CatalogRow): Promise<void> {
    const { node, log } = this.options!;
    this.running.add(row.id);
    try {
      const at = new Date();
      if (!(await this.store.catalogs.claim(row.id, node, at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString()))) return;
      const result = await this.follow(row, at);
      await this.store.catalogs.finish(row.id, node, result);
      if (result.error) log.warn({ catalog: row.zone, error: result.error }, 'catalog check found a problem');
    } catch (err) {
      log.error({ err, catalog: row.zone }, 'catalog check failed');
    } finally {
      this.running.delete(row.id);
    }
  }

  private async follow(row: CatalogRow, at: Date): Promise<CatalogResult> {
    const failed = (error: string): CatalogResult => ({
      serial: row.serial,
      members: row.members,
      last_check: at.toISOString(),
      last_success: row.last_success,
      error: error.slice(0, 1000),
      next_check: new Date(at.getTime() + RETRY_S * 1000).toISOString(),
    });
    let key: PullKey | undefined;
    if (row.tsig_key) {
      const k = await this.store.tsigKeys.byName(row.tsig_key);
      if (!k) return failed(`the TSIG key ${row.tsig_key} no longer exists`);
      key = { name: k.name, algorithm: k.algorithm, secret: Buffer.from(k.secret, 'base64') };
    }
    const errors: string[] = [];
    for (const primary of row.primaries) {
      try {
        const pulled = await this.client!.pull(parseHostPort(primary), row.zone, null, { maxRecords: this.options!.maxRecords }, key, false);
        if (pulled.kind !== 'full') throw new Error('the primary did not send the whole catalog');
        const { members, error } = catalogMembers(pulled.records);
        if (error) return failed(error);
        const problems = await this.reconcile(row, members);
        const next = new Date(at.getTime() + Math.max(1, Math.min(pulled.soa.refresh, 3600)) * 1000).toISOString();
        return {
          serial: pulled.soa.serial,
          members: members.length,
          last_check: at.toISOString(),
          last_success: at.toISOString(),
          error: problems.length ? problems.join('; ').slice(0, 1000) : null,
          next_check: next,
        };
      } catch (e) {
        errors.push(`${primary}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return failed(errors.join('; '));
  }

  /** Makes the members the catalog lists and drops those it no longer does; what could not be done, in words. */
  private async reconcile(row: CatalogRow, members: readonly string[]): Promise<string[]> {
    const problems: string[] = [];
    const owner = await this.store.users.byId(row.user_id);
    if (!owner) return ["the owner of the catalog's members no longer exists"];
    const team = row.team_id === null ? undefined : (await this.store.teams.byId(row.team_id))?.name;
    const have = new Map((await this.store.catalogs.memberZones(row.id)).map((z) => [z.name, z.id]));
    const opts: WriteOptions = { source: 'api', actor: { username: '', credential: `catalog:${row.zone}` } };
    for (const name of members) {
      if (have.has(name)) continue;
      if (await this.store.domains.byName(name)) {
        problems.push(`${name} is hosted here already, not as a member of the catalog`);
        continue;
      }
      try {
        await this.zones.create(
          owner.id,
          { name, ...(team ? { team } : {}), secondary: { primaries: row.primaries, tsig_key: row.tsig_key, catalog_id: row.id } },
          { ...opts, comment: `member of catalog ${row.zone}` },
        );
      } catch (e) {
        if (!(e instanceof ZonedeckError)) throw e;
        problems.push(`${name}: ${e.message}`);
      }
    }
    const listed = new Set(members);
    for (const [name] of have) {
      if (listed.has(name)) continue;
      try {
        await this.zones.remove(owner.id, name, undefined, undefined, { actor: { userId: owner.id, username: owner.username, credential: `catalog:${row.zone}` } });
      } catch (e) {
        if (!(e instanceof ZonedeckError)) throw e;
        problems.push(`${name}: ${e.message}`);
      }
    }
    return problems;
  }
}
