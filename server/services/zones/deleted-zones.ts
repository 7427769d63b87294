/**
 * Deleted zones: a deleted zone is archived, with its records, DNSSEC keys and
 * history, for HISTORY_DAYS (zone-owners.ts `removeZone`, in the deleting transaction), and restored in one
 * step: the same records (disabled ones too), SOA fields, keys (the very same key material, so
 * the parent's DS still matches), history, attributes, comments, owner and template link, then
 * one new change set "zone restored" whose serial is above the deleted zone's last (RFC 1982).
 *
 * An archived zone is no domain: not served, listed or counted against MAX_ZONES_PER_USER, and
 * its name is free (a zone created under it starts anew). A restore meets the rules of a
 * creation (zone-rules.ts `admissible`: the name free, not reserved, nesting, quota) and is published
 * to DNS the way a creation is, through the change set's zone event.
 */
import { Conflict, Forbidden, NotFound } from '../../core/errors';
import { zoneRefusal, type Scope } from '../../core/scope';
import type { DeletedZoneRow } from '../../store/types/deleted-zones';
import type { DomainRow, Page, ReadRepos, ServiceStore, Window } from '../../store/types';
import type { Audit, AuditActor } from '../identity/audit';
import type { ChangeSets, WriteOptions } from '../changes/change-sets';
import { admissible, type ZoneRules } from './zone-rules';

/** HISTORY_DAYS's default. */
export const DEFAULT_HISTORY_DAYS = 365;

/** What the audit log keeps of a deletion or a restore. */
export const deletedDetail = (d: DeletedZoneRow) => ({ zone: d.name, deleted_zone_id: d.id, records: d.records, dnssec: d.dnssec, expires_at: d.expires_at });

/** A deleted zone as the API lists it. */
export interface DeletedZoneView {
  id: number;
  name: string;
  deleted_at: string;
  deleted_by: string;
  records: number;
  dnssec: boolean;
  expires_at: string;
}

export const deletedZoneView = (d: DeletedZoneRow): DeletedZoneView => ({
  id: d.id,
  name: d.name,
  deleted_at: d.deleted_at,
  deleted_by: d.deleted_by,
  records: d.records,
  dnssec: d.dnssec,
  expires_at: d.expires_at,
});

/**
 * Whether the user may see and restore this archive: the role that deleted it,
 * the zone's user for a zone of their own, an owner of its team for a team's zone.
 */
async function mayRestore(tx: ReadRepos, userId: number, d: DeletedZoneRow): Promise<boolean> {
  if (d.team_id == null) return d.user_id === userId;
  return (await tx.teams.member(d.team_id, userId))?.role === 'owner';
}

export function createDeletedZones(store: ServiceStore, rules: ZoneRules, changes: ChangeSets, audit: Audit, historyDays = DEFAULT_HISTORY_DAYS) {
  return {
    /** How many days a deleted zone stays restorable (HISTORY_DAYS). */
    days: historyDays,

    /** The deleted zones the user may restore, newest deletion first; a credential scoped to zones sees only those. */
    page(userId: number, w: Window, scope?: Scope): Promise<Page<DeletedZoneRow>> {
      return store.deletedZones.page({ userId, only: scope?.zones?.length ? scope.zones : undefined }, w);
    },

    /**
     * Restores deleted zone `id` as the user: NotFound unless it is one they may restore (and it
     * has not expired); Forbidden for a credential that may not act on the zone itself; the
     * creation's 409 or 403 when its name, nesting or the quota do not allow it now. The archive
     * becomes the zone again and the change set "zone restored" is applied to it, in one
     * transaction; returns the zone as restored.
     */
    async restore(userId: number, id: number, opts: WriteOptions, actor: AuditActor): Promise<DomainRow> {
      const { zone } = await changes.apply(
        async (tx, now) => {
          // One creation at a time (zones.ts `create`): the rules below cannot be raced.
          await tx.quotas.lock('zones', 0);
          const archived = await tx.deletedZones.byId(id);
          if (!archived || archived.expires_at <= now.toISOString() || !(await mayRestore(tx, userId, archived))) throw new NotFound(`no deleted zone with id ${id}`);
          const why = opts.actor.scope ? zoneRefusal(opts.actor.scope, archived.name, 'restore the zone') : null;
          if (why) throw new Forbidden(why);
          const team = archived.team_id != null ? await tx.teams.byId(archived.team_id) : undefined;
          if (archived.team_id != null && !team) throw new Conflict(`${archived.name} belonged to a team that no longer exists; it cannot be restored`, { id: "the zone's team was deleted" });
          await admissible(rules, tx, archived.user_id, archived.name, archived.team_id);
          const owner = { id: archived.user_id, username: (await tx.users.byId(archived.user_id))?.username ?? '' };
          await audit.record({ kind: 'zone-restored', actor, subject: owner, ...(team ? { team: { id: team.id, name: team.name } } : {}), detail: deletedDetail(archived) }, tx);
          // The change set brings the archive back as the zone (and the catalog lists it again).
          return { restore: id };
        },
        { ...opts, dryRun: false, ifMatch: undefined, batch: undefined, comment: 'zone restored' },
        (edit) => {
          // A new serial above the deleted zone's last: secondaries and resolvers see a newer zone.
          edit.touch = true;
        },
      );
      return zone;
    },

    /** Removes the archives whose time is up (the hourly history pruning); returns how many. */
    purge: (now = new Date()) => changes.purgeDeleted(now),
  };
}

export type DeletedZones = ReturnType<typeof createDeletedZones>;
